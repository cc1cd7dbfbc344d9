/** The search index skips replies still streaming and indexes them once final (schema v2). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SessionDB } from './session-db.js';

describe('FTS and streaming rows', () => {
  it('indexes a checkpointed reply only when it is final, and the index stays consistent', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fts-stream-')), 'state.db');
    const db = SessionDB.open(file);
    const s = db.createSession({ source: 'test' });
    const id = db.appendMessage(s.id, {
      role: 'assistant',
      content: 'partial aardvark',
      status: 'streaming',
    });
    db.updateMessage(id, { content: 'partial aardvark bumblebee' });
    expect(db.search('aardvark')).toHaveLength(0);
    db.updateMessage(id, { content: 'final aardvark bumblebee caterpillar', status: 'complete' });
    expect(db.search('caterpillar').map((h) => h.message_id)).toEqual([id]);
    // crash recovery turns a streaming row into an interrupted one: indexed then
    const id2 = db.appendMessage(s.id, { role: 'assistant', content: 'dromedary half', status: 'streaming' });
    db.recoverInterrupted();
    expect(db.search('dromedary').map((h) => h.message_id)).toEqual([id2]);
    db.deleteSession(s.id);
    expect(db.search('caterpillar')).toHaveLength(0);
    db.close();
    const raw = new Database(file);
    expect(() =>
      raw.prepare(`INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')`).run(),
    ).not.toThrow();
    raw.close();
  });
});
