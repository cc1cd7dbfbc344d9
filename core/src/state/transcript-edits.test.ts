import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionDB, SessionNotFoundError } from './session-db.js';

let dir: string;
let db: SessionDB;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-transcript-edits-'));
  db = SessionDB.open(join(dir, 'state.db'), { warn: () => {} });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function seed(): { id: string; ids: number[] } {
  const s = db.createSession({ source: 'tui', model: 'm1', cwd: '/w', title: 'plans' });
  const ids = db.appendMessages(s.id, [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'first question zebra', timestamp: 1000 },
    { role: 'assistant', content: 'first answer', status: 'complete' },
    { role: 'user', content: 'second question giraffe' },
    { role: 'assistant', content: 'second answer giraffe', status: 'complete' },
  ]);
  return { id: s.id, ids };
}

describe('TranscriptEdits.truncateFrom', () => {
  it('deletes the message and everything after it, keeps the count and the search index exact', () => {
    const { id, ids } = seed();
    expect(db.search('giraffe')).toHaveLength(2);
    expect(db.transcript.truncateFrom(id, ids[3]!)).toBe(2);
    expect(db.getMessages(id).map((m) => m.content)).toEqual(['sys', 'first question zebra', 'first answer']);
    expect(db.getSession(id)!.message_count).toBe(3);
    expect(db.search('giraffe')).toHaveLength(0);
    expect(db.search('zebra')).toHaveLength(1);
    // appending goes on after the cut
    db.appendMessage(id, { role: 'user', content: 'again' });
    expect(db.getSession(id)!.message_count).toBe(4);
  });

  it('touches only the named session and refuses an unknown one', () => {
    const a = seed();
    const b = seed();
    db.transcript.truncateFrom(a.id, a.ids[1]!);
    expect(db.countMessages(b.id)).toBe(5);
    expect(() => db.transcript.truncateFrom('nope', 1)).toThrow(SessionNotFoundError);
  });
});

describe('TranscriptEdits.fork', () => {
  it('copies the messages before a point into a new child session; the original is kept', () => {
    const { id, ids } = seed();
    const f = db.transcript.fork(id, { beforeId: ids[3]!, title: 'plans (fork)' });
    expect(f).toMatchObject({
      parent_session_id: id,
      source: 'tui',
      model: 'm1',
      cwd: '/w',
      title: 'plans (fork)',
      message_count: 3,
    });
    const copied = db.getMessages(f.id);
    expect(copied.map((m) => m.content)).toEqual(['sys', 'first question zebra', 'first answer']);
    expect(copied[1]!.timestamp).toBe(1000);
    expect(db.countMessages(id)).toBe(5);
    // a second fork with the same title gets a unique one
    expect(db.transcript.fork(id, { title: 'plans (fork)' }).title).toBe('plans (fork) (2)');
  });

  it('copies everything without a point, and refuses an unknown session', () => {
    const { id } = seed();
    expect(db.transcript.fork(id).message_count).toBe(5);
    expect(() => db.transcript.fork('nope')).toThrow(SessionNotFoundError);
  });
});
