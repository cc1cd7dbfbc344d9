/** ProfileWriter: writes run at once, wait in order behind an outside lock, never block. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useStateDbFile } from '@hermes/core/testing';
import { SessionDB } from '@hermes/core/state';
import { ProfileWriter } from './profile-writer.js';

const fx = useStateDbFile('hermes-pwriter-');

describe('ProfileWriter', () => {
  it('queues writes behind a lock without blocking, keeps their order, maps provisional ids', async () => {
    fx.open().close(); // create the schema
    const db = SessionDB.open(fx.file, { waitForLocks: false });
    const log: string[] = [];
    const w = new ProfileWriter(
      () => db,
      (l) => log.push(l),
    );
    const sid = db.createSession({ source: 'tui' }).id;
    expect(w.appendMessage(sid, { role: 'user', content: 'before' })).toBeGreaterThan(0);

    const other = new Database(fx.file);
    other.exec('BEGIN IMMEDIATE');
    const t0 = performance.now();
    const id = w.appendMessage(sid, { role: 'assistant', content: 'par', status: 'streaming' });
    w.updateMessage(id, { content: 'partial reply', status: 'complete' });
    w.setSessionState(sid, 'idle');
    expect(performance.now() - t0).toBeLessThan(50); // nothing waited on this thread
    expect(id).toBeLessThan(0);
    expect(w.pending).toBe(3);
    await new Promise((r) => setTimeout(r, 300));
    expect(w.pending).toBe(3);
    other.exec('ROLLBACK');
    other.close();
    await w.flushed();
    expect(db.getMessages(sid).map((m) => [m.content, m.status])).toEqual([
      ['before', null],
      ['partial reply', 'complete'],
    ]);
    expect(db.getSession(sid)!.state).toBe('idle');
    expect(log).toEqual([]);
    db.close();
  });
});
