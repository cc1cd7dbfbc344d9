/** The `queued_prompts` table (schema v3): the daemon's prompt queue kept across a crash. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './schema.js';
import type { SessionDB } from './session-db.js';
import { SessionDBError, SessionNotFoundError } from './session-db.js';
import { useStateDbFile } from './testing.js';

const fx = useStateDbFile('hermes-queued-');
const db = (): SessionDB => fx.open();

describe('SessionDB queued prompts', () => {
  it('keeps them in queue order until unqueued, visible to another connection', () => {
    const d = db();
    const s = d.createSession({ source: 'tui' });
    d.queuePrompt(s.id, { promptId: 'p-2', text: 'second', by: 'tui:c-1', queuedAt: 5 });
    d.queuePrompt(s.id, { promptId: 'p-1', text: 'third' });
    const other = fx.open({ readonly: true });
    expect(other.queuedPrompts(s.id).map((q) => [q.prompt_id, q.text, q.queued_by])).toEqual([
      ['p-2', 'second', 'tui:c-1'],
      ['p-1', 'third', null],
    ]);
    expect(d.unqueuePrompt('p-2')).toBe(true);
    expect(d.unqueuePrompt('p-2')).toBe(false);
    expect(d.queuedPrompts(s.id).map((q) => q.prompt_id)).toEqual(['p-1']);
  });

  it('refuses an unknown session, a used id and an empty text, naming them', () => {
    const d = db();
    const s = d.createSession({ source: 'tui' });
    expect(() => d.queuePrompt('nope', { promptId: 'p-1', text: 'x' })).toThrow(SessionNotFoundError);
    d.queuePrompt(s.id, { promptId: 'p-1', text: 'x' });
    expect(() => d.queuePrompt(s.id, { promptId: 'p-1', text: 'y' })).toThrow(
      /prompt "p-1" is already queued/,
    );
    const empty = (() => {
      try {
        d.queuePrompt(s.id, { promptId: 'p-3', text: '' });
      } catch (err) {
        return err;
      }
    })();
    expect(empty).toBeInstanceOf(SessionDBError);
    expect((empty as SessionDBError).code).toBe('EINVAL');
  });

  it('moves them with a compressed session and deletes them with the session', () => {
    const d = db();
    const a = d.createSession({ source: 'tui' });
    const b = d.createSession({ source: 'tui', parentSessionId: a.id });
    d.queuePrompt(a.id, { promptId: 'p-1', text: 'x' });
    d.moveQueuedPrompts(a.id, b.id);
    expect(d.queuedPrompts(a.id)).toEqual([]);
    expect(d.queuedPrompts(b.id).map((q) => q.prompt_id)).toEqual(['p-1']);
    d.deleteSession(b.id);
    expect(d.queuedPrompts(b.id)).toEqual([]);
  });

  it('migrates a v2 database to the current schema keeping its sessions and messages', () => {
    const d = db();
    const s = d.createSession({ source: 'cli', title: 'old' });
    d.appendMessage(s.id, { role: 'user', content: 'kept' });
    d.close();
    const raw = new Database(fx.file);
    raw.exec('DROP TABLE queued_prompts');
    raw.pragma('user_version = 2');
    raw.close();

    const again = db();
    expect(again.getMessages(s.id).map((m) => m.content)).toEqual(['kept']);
    again.queuePrompt(s.id, { promptId: 'p-1', text: 'after the upgrade' });
    expect(again.queuedPrompts(s.id)).toHaveLength(1);
    const check = new Database(fx.file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(6);
    check.close();
  });
});
