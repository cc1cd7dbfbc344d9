import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionDB, SessionDBError } from './session-db.js';

let dir: string;
let file: string;
const open: SessionDB[] = [];
const db = (opts: Parameters<typeof SessionDB.open>[1] = {}): SessionDB => {
  const d = SessionDB.open(file, { warn: () => {}, ...opts });
  open.push(d);
  return d;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-sessiondb-'));
  file = join(dir, 'home', 'state.db');
});
afterEach(() => {
  for (const d of open.splice(0)) d.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SessionDB messages', () => {
  it('appends, bumps message_count, updates a partial reply and exports', () => {
    const d = db();
    const s = d.createSession({ source: 'cli' });
    const u = d.appendMessage(s.id, { role: 'user', content: 'list files' });
    const a = d.appendMessage(s.id, {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls"}' } },
      ] as never,
    });
    const t = d.appendMessage(s.id, {
      role: 'tool',
      content: 'a.txt',
      tool_call_id: 'c1',
      tool_name: 'terminal',
    });
    const r = d.appendMessage(s.id, { role: 'assistant', content: 'Here are', status: 'interrupted' });
    expect([u, a, t, r]).toEqual([u, u + 1, u + 2, u + 3]);
    expect(d.getSession(s.id)?.message_count).toBe(4);
    expect(JSON.parse(d.getMessage(a)!.tool_calls!)[0].function.name).toBe('terminal');

    d.updateMessage(r, { content: 'Here are your files', status: 'complete', finish_reason: 'stop' });
    expect(d.getMessage(r)).toMatchObject({
      content: 'Here are your files',
      status: 'complete',
      finish_reason: 'stop',
    });
    expect(d.search('your files').map((h) => h.message_id)).toEqual([r]);
    expect(d.search('Here are').map((h) => h.message_id)).toEqual([r]);

    const exp = d.exportSession(s.id);
    expect(exp.session.id).toBe(s.id);
    expect(exp.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('returns windows oldest → newest ending before a message id', () => {
    const d = db();
    const s = d.createSession({ source: 'cli' });
    const other = d.createSession({ source: 'cli' });
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push(d.appendMessage(s.id, { role: 'user', content: `m${i}` }));
      d.appendMessage(other.id, { role: 'user', content: `other ${i}` });
    }
    const text = (ms: { content: string | null }[]) => ms.map((m) => m.content);
    expect(text(d.getMessages(s.id))).toEqual(ids.map((_, i) => `m${i}`));
    expect(text(d.getMessages(s.id, { limit: 3 }))).toEqual(['m7', 'm8', 'm9']);
    expect(text(d.getMessages(s.id, { before: ids[5], limit: 3 }))).toEqual(['m2', 'm3', 'm4']);
    expect(text(d.getMessages(s.id, { before: ids[2], limit: 5 }))).toEqual(['m0', 'm1']);
    expect(text(d.getMessages(s.id, { after: ids[6] }))).toEqual(['m7', 'm8', 'm9']);
    expect(text(d.getMessages(s.id, { after: ids[1], limit: 2 }))).toEqual(['m2', 'm3']);
    expect(d.getMessages('missing')).toEqual([]);
    expect(d.countMessages(s.id)).toBe(10);
    expect(d.countMessages()).toBe(20);
  });
});

describe('SessionDB search', () => {
  it('finds a word from a tool result and a hyphenated term, with snippets', () => {
    const d = db();
    const s = d.createSession({ source: 'cli', title: 'Models' });
    d.appendMessage(s.id, { role: 'user', content: 'Which model should I use?' });
    const tool = d.appendMessage(s.id, {
      role: 'tool',
      content: 'total 8\n-rw-r--r-- 1 me me 12 zanzibar.txt',
      tool_name: 'terminal',
      tool_call_id: 'c1',
    });
    const hy = d.appendMessage(s.id, { role: 'assistant', content: 'Try gpt-4o-mini for speed, or gpt-4o.' });
    d.appendMessage(s.id, { role: 'assistant', content: 'gpt is a family; 4o is unrelated here' });

    const hits = d.search('zanzibar');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({
      message_id: tool,
      role: 'tool',
      session_id: s.id,
      session_title: 'Models',
    });
    expect(hits[0]!.snippet).toContain('[zanzibar]');

    const hyph = d.search('gpt-4o');
    expect(hyph.map((h) => h.message_id)).toEqual([hy]);
    expect(hyph[0]!.snippet).toContain('[gpt-4o]');
    expect(d.search('gpt-4o-mini').map((h) => h.message_id)).toEqual([hy]);
    expect(d.search('terminal').map((h) => h.message_id)).toEqual([tool]); // tool name is indexed
    expect(d.search('zanz*').map((h) => h.message_id)).toEqual([tool]);
  });

  it('never throws on plain words with quotes, hyphens, dangling AND/OR or stray parentheses', () => {
    const d = db();
    const s = d.createSession({ source: 'cli' });
    d.appendMessage(s.id, {
      role: 'user',
      content: 'deploy the api (staging) with "quotes" and rock-n-roll',
    });
    const weird = [
      'deploy AND',
      'OR deploy',
      'AND',
      'deploy OR OR api',
      'NOT',
      '"unbalanced quote',
      'staging)',
      '(staging',
      '((()))',
      '"',
      '""',
      '-',
      '- -- ---',
      'rock-n-roll',
      'col:deploy',
      'deploy^2 +api {x}',
      'NEAR(deploy api)',
      '*',
      "it's",
      '\\',
      'deploy;DROP TABLE messages',
      '',
      '   ',
    ];
    for (const q of weird) expect(() => d.search(q), q).not.toThrow();
    expect(d.search('deploy AND').length).toBe(1);
    expect(d.search('OR deploy').length).toBe(1);
    expect(d.search('"unbalanced quote').length).toBe(0);
    expect(d.search('(staging').length).toBe(1);
    expect(d.search('rock-n-roll').length).toBe(1);
    expect(d.search('AND')).toEqual([]);
    expect(d.countMessages()).toBe(1);
  });

  it('limits and scopes hits to a session and role', () => {
    const d = db();
    const a = d.createSession({ source: 'cli' });
    const b = d.createSession({ source: 'cli' });
    for (let i = 0; i < 30; i++)
      d.appendMessage(i % 2 ? a.id : b.id, { role: i % 3 ? 'user' : 'assistant', content: `kiwi ${i}` });
    expect(d.search('kiwi')).toHaveLength(20);
    expect(d.search('kiwi', { limit: 5 })).toHaveLength(5);
    const inA = d.search('kiwi', { sessionId: a.id, limit: 100 });
    expect(inA).toHaveLength(15);
    expect(inA.every((h) => h.session_id === a.id)).toBe(true);
    expect(d.search('kiwi', { role: 'assistant', limit: 100 }).every((h) => h.role === 'assistant')).toBe(
      true,
    );
  });

  it('finds CJK text by substring', () => {
    const d = db();
    const s = d.createSession({ source: 'cli' });
    const id = d.appendMessage(s.id, { role: 'user', content: '我们明天讨论数据库的设计' });
    const hits = d.search('数据库');
    expect(hits.map((h) => h.message_id)).toEqual([id]);
    expect(hits[0]!.snippet).toContain('[数据库]');
  });
});

describe('SessionDB connections', () => {
  it('a read-only connection reads but cannot write', () => {
    const w = db();
    const s = w.createSession({ source: 'cli', title: 'ro' });
    w.appendMessage(s.id, { role: 'user', content: 'visible to readers' });
    const r = db({ readonly: true });
    expect(r.readonly).toBe(true);
    expect(r.getSession(s.id)?.title).toBe('ro');
    expect(r.search('readers')).toHaveLength(1);
    expect(() => r.appendMessage(s.id, { role: 'user', content: 'x' })).toThrow(/read-only/);
    expect(() => r.renameSession(s.id, 'x')).toThrow(SessionDBError);
    // Even bypassing our guard, SQLite refuses: the connection itself is read-only.
    expect(() => (r as unknown as { db: Database.Database }).db.exec(`DELETE FROM messages`)).toThrow(
      /readonly/,
    );
    expect(w.countMessages(s.id)).toBe(1);
  });

  it('read-only open of a missing file is a clear ENOENT', () => {
    expect(() => SessionDB.open(join(dir, 'none.db'), { readonly: true })).toThrow(/no session database at/);
  });

  it('refuses a database written by a newer schema', () => {
    db().close();
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => SessionDB.open(file, { warn: () => {} })).toThrow(/schema version 99 is newer/);
  });

  it('gives up with SQLITE_BUSY naming the file when the lock outlasts the budget', () => {
    const d = db({ budgets: { bookkeepingMs: 300 } });
    const s = d.createSession({ source: 'cli' });
    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const t0 = performance.now();
      let err: unknown;
      try {
        d.renameSession(s.id, 'blocked');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(SessionDBError);
      expect((err as SessionDBError).code).toBe('SQLITE_BUSY');
      expect((err as Error).message).toContain(file);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    d.renameSession(s.id, 'unblocked');
    expect(d.getSession(s.id)?.title).toBe('unblocked');
  });

  it('runs a passive checkpoint every 50 writes', () => {
    const d = db();
    const conn = (d as unknown as { db: Database.Database }).db;
    const pragma = vi.spyOn(conn, 'pragma');
    const s = d.createSession({ source: 'cli' });
    for (let i = 0; i < 120; i++) d.appendMessage(s.id, { role: 'user', content: `m${i}` });
    const checkpoints = () => pragma.mock.calls.filter(([sql]) => sql === 'wal_checkpoint(PASSIVE)').length;
    expect(checkpoints()).toBe(2); // after the 50th and the 100th of 121 writes
    expect(d.checkpointIfDue()).toBe(false);
    for (let i = 0; i < 29; i++) d.appendMessage(s.id, { role: 'user', content: `n${i}` });
    expect(checkpoints()).toBe(3);
  });

  it('close is idempotent and later calls fail clearly', () => {
    const d = db();
    d.close();
    d.close();
    expect(() => d.listSessions()).toThrow(/is closed/);
  });
});
