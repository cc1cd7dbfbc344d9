import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionDB, SessionNotFoundError } from './session-db.js';
import { isCanonicalSessionId } from './session-id.js';

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

describe('SessionDB sessions (session-rows.ts)', () => {
  it('creates the file (0600, WAL) and a session with a canonical id', () => {
    const s = db().createSession({ source: 'cli', title: '  My   first\tchat ', model: 'm1', cwd: '/w' });
    expect(isCanonicalSessionId(s.id)).toBe(true);
    expect(s).toMatchObject({
      source: 'cli',
      title: 'My first chat',
      model: 'm1',
      cwd: '/w',
      state: 'active',
      message_count: 0,
      ended_at: null,
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(open[0]!.journalMode).toBe('wal');
  });

  it('reads, lists (newest first, by source and title query), renames, ends and deletes', () => {
    const d = db();
    const a = d.createSession({ source: 'cli', title: 'Alpha notes', startedAt: 1_000 });
    const b = d.createSession({ source: 'tui', title: 'Beta plan', startedAt: 2_000 });
    const c = d.createSession({ source: 'cli', startedAt: 3_000, parentSessionId: a.id });
    expect(d.listSessions().map((s) => s.id)).toEqual([c.id, b.id, a.id]);
    expect(d.listSessions({ source: 'cli' }).map((s) => s.id)).toEqual([c.id, a.id]);
    expect(d.listSessions({ query: 'alpha' }).map((s) => s.id)).toEqual([a.id]);
    expect(d.listSessions({ limit: 1, offset: 1 }).map((s) => s.id)).toEqual([b.id]);
    expect(d.latestSession()?.id).toBe(c.id);
    expect(d.latestSession({ source: 'tui' })?.id).toBe(b.id);
    expect(d.findSessionByTitle('beta PLAN')?.id).toBe(b.id);
    expect(d.findSessionByTitle('x'.repeat(5000))).toBeUndefined();

    d.renameSession(a.id, 'Renamed');
    expect(d.getSession(a.id)?.title).toBe('Renamed');
    expect(d.resolveSession('Renamed')?.id).toBe(a.id);
    expect(d.resolveSession(a.id.slice(0, 18))?.id).toBe(a.id);

    d.endSession(b.id, 'user_exit');
    expect(d.getSession(b.id)).toMatchObject({ state: 'ended', end_reason: 'user_exit' });
    expect(d.getSession(b.id)?.ended_at).toBeGreaterThan(0);
    d.setSessionState(b.id, 'active');
    expect(d.getSession(b.id)).toMatchObject({ state: 'active', ended_at: null, end_reason: null });
    d.setSessionState(b.id, 'resume_pending');
    expect(d.getSession(b.id)?.state).toBe('resume_pending');

    d.appendMessage(a.id, { role: 'user', content: 'hello' });
    expect(d.deleteSession(a.id)).toBe(1);
    expect(d.getSession(a.id)).toBeUndefined();
    expect(d.countMessages(a.id)).toBe(0);
    expect(d.getSession(c.id)?.parent_session_id).toBeNull();
  });

  it('names the unknown id and the file', () => {
    const d = db();
    for (const fn of [
      () => d.renameSession('nope', 'x'),
      () => d.deleteSession('nope'),
      () => d.endSession('nope', 'x'),
      () => d.addUsage('nope', 1, 1),
      () => d.appendMessage('nope', { role: 'user', content: 'x' }),
      () => d.exportSession('nope'),
    ]) {
      expect(fn).toThrow(SessionNotFoundError);
      expect(fn).toThrow(/no session "nope" in .*state\.db/);
    }
    expect(d.getSession('nope')).toBeUndefined();
  });

  it('refuses bad input with errors naming the field', () => {
    const d = db();
    const s = d.createSession({ source: 'cli' });
    expect(() => d.createSession({ source: '' })).toThrow(/source is required/);
    expect(() => d.createSession({ source: 'cli', id: 'has space' })).toThrow(/may only contain/);
    expect(() => d.createSession({ source: 'cli', id: s.id })).toThrow(/already exists/);
    expect(() => d.renameSession(s.id, 'x'.repeat(201))).toThrow(/title is 201 characters/);
    expect(() => d.appendMessage(s.id, { role: 'bot' as 'user', content: 'x' })).toThrow(
      /role must be one of/,
    );
    expect(() => d.addUsage(s.id, -1, 0)).toThrow(/promptTokens must be a non-negative/);
    expect(() => d.setSessionState(s.id, 'Bad State')).toThrow(/session state/);
    const id = d.appendMessage(s.id, { role: 'assistant', content: '' });
    expect(() => d.updateMessage(id, { role: 'user' } as never)).toThrow(/cannot change "role"/);
    expect(() => d.updateMessage(99_999, { content: 'x' })).toThrow(/no message 99999/);
  });

  it('adds usage', () => {
    const d = db();
    const s = d.createSession({ source: 'cli' });
    d.addUsage(s.id, 100, 20);
    d.addUsage(s.id, 5, 1);
    expect(d.getSession(s.id)).toMatchObject({ prompt_tokens: 105, completion_tokens: 21 });
  });
});
