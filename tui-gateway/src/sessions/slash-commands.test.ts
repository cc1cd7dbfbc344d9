/**
 * `/title` against a stand-in session store: a refused title (taken, too long) is an answer line,
 * a storage failure is an error of the method (mapped by the dispatcher like every other).
 */
import { describe, expect, it } from 'vitest';
import { SessionDBError } from '@hermes/core/state/errors';
import type { Connection } from '../rpc/types.js';
import { runSlashCommand } from './slash-commands.js';
import type { SessionRegistry } from './session-registry.js';

const conn = { id: 'c-1', profile: 'default' } as Connection;

/** A registry whose only session `s1` fails `renameSession` with `error`. */
function registry(error: Error): SessionRegistry {
  const db = {
    getSession: (id: string) => (id === 's1' ? { id, title: 'old' } : undefined),
    renameSession: () => {
      throw error;
    },
  };
  return {
    profile: () => ({ db }),
    currentId: (_profile: string, id: string) => id,
    peek: () => undefined,
  } as unknown as SessionRegistry;
}

describe('/title', () => {
  it.each([
    ['taken', 'EEXIST', 'title "x" is already used by session s2'],
    ['too long', 'EINVAL', 'title is 300 characters long (at most 200)'],
  ])('a %s title is answered with "Title not changed"', async (_what, code, message) => {
    const sessions = registry(new SessionDBError(message, '/h/state.db', code));
    expect(await runSlashCommand(sessions, conn, 's1', '/title x')).toEqual({
      output: `Title not changed: ${message}.`,
      handled: true,
    });
  });

  it.each([
    ['a damaged database', new SessionDBError('/h/state.db is damaged', '/h/state.db', 'ECORRUPT')],
    ['a full disk', new SessionDBError('database or disk is full', '/h/state.db', 'SQLITE_FULL')],
    ['another failure', new Error('boom')],
  ])('%s is thrown to the normal error mapping, not turned into a line', async (_what, error) => {
    expect(() => runSlashCommand(registry(error), conn, 's1', '/title x')).toThrow(error);
  });
});
