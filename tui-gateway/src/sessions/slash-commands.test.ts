/**
 * `/title` against a stand-in session store: a refused title (taken, too long) is an answer line,
 * a storage failure is an error of the method (mapped by the dispatcher like every other).
 * `/permissions` against a stand-in session guard and a real profile config.yaml. `/usage`'s line.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@hermes/core/config';
import { HermesHome } from '@hermes/core/home';
import { SessionDBError } from '@hermes/core/state';
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

describe('/permissions', () => {
  const entry = 'recursive-delete: rm -f -r [/p/build]';
  const mine = "inline-code: python3 -c 'print(1)'";

  /** A registry whose session `s1` approved `mine` for the session; the profile's file lists two. */
  function setup() {
    const home = new HermesHome(mkdtempSync(join(tmpdir(), 'slash-perm-'))).ensure();
    writeFileSync(
      home.configFile,
      `_config_version: 2\n# mine\ncommand_allowlist:\n  - recursive-delete\n  - "${entry}"\n`,
    );
    const session = [mine];
    const revoked: string[] = [];
    const approvals = {
      list: () => [...session],
      revoke: (e: string) => {
        revoked.push(e);
        const i = session.indexOf(e);
        if (i >= 0) session.splice(i, 1);
        return i >= 0;
      },
    };
    let config = loadConfig(home);
    const profile = {
      db: { getSession: (id: string) => (id === 's1' ? { id } : undefined) },
      home,
      get config() {
        return config;
      },
      refresh: () => void (config = loadConfig(home)),
    };
    const sessions = {
      profile: () => profile,
      currentId: (_p: string, id: string) => id,
      approvals: () => approvals,
    } as unknown as SessionRegistry;
    const run = async (line: string) => (await runSlashCommand(sessions, conn, 's1', line)).output;
    return { home, run, revoked };
  }

  it("lists this session's approvals and the profile's entries, numbered together", async () => {
    const { run } = setup();
    expect(await run('/permissions')).toBe(
      [
        'This session (answered "session"; until the session ends):',
        `  1. ${mine}`,
        'Profile default (command_allowlist in config.yaml; answered "always"):',
        '  2. recursive-delete  (ignored: approves a whole class; remove it)',
        `  3. ${entry}`,
        'Remove one with /permissions remove N (or its text).',
      ].join('\n'),
    );
  });

  it('removes a session approval by number; the guard forgets it', async () => {
    const { run, revoked, home } = setup();
    expect(await run('/permissions remove 1')).toBe(`Removed from this session: ${mine}`);
    expect(revoked).toEqual([mine]);
    expect(loadConfig(home).command_allowlist).toHaveLength(2);
    expect(await run('/permissions')).toContain('This session: no approvals.');
  });

  it("removes a profile entry by number or text from config.yaml (comments kept) and from the session's guard", async () => {
    const { run, revoked, home } = setup();
    expect(await run('/permissions remove 2')).toBe(
      "Removed from profile default's command_allowlist: recursive-delete",
    );
    expect(await run(`/permissions remove ${entry}`)).toBe(
      `Removed from profile default's command_allowlist: ${entry}`,
    );
    expect(loadConfig(home).command_allowlist).toEqual([]);
    expect(readFileSync(home.configFile, 'utf8')).toContain('# mine');
    expect(revoked).toEqual(['recursive-delete', entry]);
    expect(await run('/permissions remove 9')).toBe('No entry 9: there are 1. /permissions lists them.');
    expect(await run('/permissions drop')).toMatch(/^Unknown \/permissions argument "drop"/);
  });
});

describe('/usage', () => {
  /** A registry whose session `s1` holds `count` messages and no model call. */
  const withMessages = (count: number): SessionRegistry => {
    const db = {
      getSession: (id: string) =>
        id === 's1' ? { id, prompt_tokens: 0, completion_tokens: 0, message_count: count } : undefined,
      modelCalls: {
        sessionTotals: () => ({
          priced_calls: 0,
          local_calls: 0,
          unknown_calls: 0,
          prompt_tokens: 0,
          completion_tokens: 0,
          cost_micros: 0,
        }),
      },
    };
    return {
      profile: () => ({ db }),
      currentId: (_profile: string, id: string) => id,
      peek: () => undefined,
    } as unknown as SessionRegistry;
  };

  it('counts messages in the singular for one', async () => {
    const one = (await runSlashCommand(withMessages(1), conn, 's1', '/usage')) as { output: string };
    expect(one.output).toContain('= 0; 1 message. Cost:');
    const three = (await runSlashCommand(withMessages(3), conn, 's1', '/usage')) as { output: string };
    expect(three.output).toContain('= 0; 3 messages. Cost:');
  });

  it('says "none yet" before the first model call (not "unknown")', async () => {
    const r = (await runSlashCommand(withMessages(1), conn, 's1', '/usage')) as { output: string };
    expect(r.output).toMatch(/ Cost: none yet\.$/);
  });
});
