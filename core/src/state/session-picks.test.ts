import { describe, expect, it } from 'vitest';
import { autoTitleFrom, previewText } from './session-picks.js';
import { useStateDbFile } from './testing.js';

const fx = useStateDbFile('hermes-picks-');

/** Sets a session's last activity (epoch ms) directly. */
function touch(db: ReturnType<typeof fx.open>, id: string, at: number): void {
  // the public API stamps Date.now(); tests need a fixed order
  (db as unknown as { db: { prepare(s: string): { run(...a: unknown[]): void } } }).db
    .prepare('UPDATE sessions SET updated_at = ? WHERE id = ?')
    .run(at, id);
}

describe('continueSession (--continue)', () => {
  it('picks the interactive session with the latest activity, not the latest started or an API one', () => {
    const db = fx.open();
    const tui = db.createSession({ source: 'tui', cwd: '/proj', startedAt: 1_000 });
    const oneShot = db.createSession({ source: 'cli', cwd: '/proj', startedAt: 2_000 });
    const api = db.createSession({ source: 'api_server', cwd: '/proj', startedAt: 3_000 });
    const cron = db.createSession({ source: 'cron', cwd: '/proj', startedAt: 4_000 });
    touch(db, tui.id, 9_000);
    touch(db, oneShot.id, 2_000);
    touch(db, api.id, 10_000);
    touch(db, cron.id, 11_000);
    expect(db.continueSession({ cwd: '/proj' })?.id).toBe(tui.id);
    expect(db.latestSession()?.id).toBe(cron.id); // what --continue used to pick
  });

  it('prefers a session in the current folder, else the latest anywhere; skips compressed parents', () => {
    const db = fx.open();
    const here = db.createSession({ source: 'cli', cwd: '/here', startedAt: 1_000 });
    const there = db.createSession({ source: 'tui', cwd: '/there', startedAt: 2_000 });
    touch(db, here.id, 1_000);
    touch(db, there.id, 5_000);
    expect(db.continueSession({ cwd: '/here' })?.id).toBe(here.id);
    expect(db.continueSession({ cwd: '/elsewhere' })?.id).toBe(there.id);
    db.endSession(there.id, 'compressed');
    const child = db.createSession({ source: 'tui', cwd: '/there', parentSessionId: there.id });
    touch(db, there.id, 9_000);
    touch(db, child.id, 6_000);
    expect(db.continueSession({ cwd: '/there' })?.id).toBe(child.id);
  });

  it('finds nothing when only non-interactive sessions exist', () => {
    const db = fx.open();
    db.createSession({ source: 'telegram' });
    expect(db.continueSession({ cwd: '/x' })).toBeUndefined();
  });
});

describe('titles', () => {
  it('titles an untitled cli/tui session from its first prompt, once, and never others', () => {
    const db = fx.open();
    const s = db.createSession({ source: 'tui' });
    db.appendMessage(s.id, { role: 'system', content: 'You are Hermes.' });
    db.appendMessage(s.id, {
      role: 'user',
      content: '\n  Fix the flaky   login test\nplease, it fails on CI',
    });
    db.appendMessage(s.id, { role: 'user', content: 'second prompt' });
    expect(db.getSession(s.id)?.title).toBe('Fix the flaky login test');
    const api = db.createSession({ source: 'api_server' });
    db.appendMessage(api.id, { role: 'user', content: 'hello' });
    expect(db.getSession(api.id)?.title).toBeNull();
    const named = db.createSession({ source: 'cli', title: 'Mine' });
    db.appendMessage(named.id, { role: 'user', content: 'hello' });
    expect(db.getSession(named.id)?.title).toBe('Mine');
  });

  it('keeps titles unique: a repeated title gets the next number, a rename to a taken one is refused', () => {
    const db = fx.open();
    const a = db.createSession({ source: 'tui', title: 'First trial session' });
    const b = db.createSession({ source: 'tui', title: 'First trial session', parentSessionId: a.id });
    const c = db.createSession({ source: 'tui', title: 'first trial session (2)' });
    expect(b.title).toBe('First trial session (2)');
    expect(c.title).toBe('first trial session (3)'); // the base as typed, the next number
    const d = db.createSession({ source: 'cli' });
    db.appendMessage(d.id, { role: 'user', content: 'First trial session' });
    expect(db.getSession(d.id)?.title).toBe('First trial session (4)');
    expect(() => db.renameSession(d.id, 'FIRST trial session')).toThrow(/already used by session/);
    db.renameSession(a.id, 'First trial session'); // its own title
    expect(db.findSessionByTitle('First trial session (2)')?.id).toBe(b.id);
  });

  it('previews and auto-titles are one line and capped at a word boundary', () => {
    const long = 'Please refactor the session picker so that it shows the first prompt of each session';
    const t = autoTitleFrom(long)!;
    expect(t.length).toBeLessThanOrEqual(60);
    expect(t).toMatch(/^Please refactor the session picker so that it shows the…$/);
    expect(previewText('a\n\nb   c', 60)).toBe('a b c');
    expect(autoTitleFrom('  \n---\n')).toBeUndefined();
  });

  it('firstPrompts gives the first user prompt of each session, also in long sessions', () => {
    const db = fx.open();
    const s = db.createSession({ source: 'api_server' });
    db.appendMessage(s.id, { role: 'system', content: 'sys' });
    db.appendMessage(s.id, { role: 'user', content: 'the first question' });
    for (let i = 0; i < 5; i++) db.appendMessage(s.id, { role: 'assistant', content: `answer ${i}` });
    const empty = db.createSession({ source: 'cli' });
    expect(db.firstPrompts([s.id, empty.id])).toEqual(new Map([[s.id, 'the first question']]));
  });

  it('firstPrompts leaves out the content of attached @ references', () => {
    const db = fx.open();
    const s = db.createSession({ source: 'tui' });
    const block =
      '\n\n<attached-context>\nnotice\nrefs: [{"kind":"diff","ref":"diff"}]\nBODY\n</attached-context>';
    db.appendMessage(s.id, { role: 'user', content: `review @diff${block}` });
    expect(db.firstPrompts([s.id])).toEqual(new Map([[s.id, 'review @diff']]));
  });
});
