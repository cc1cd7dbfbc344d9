import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeContent, SourceDb, toMs } from './source-db.js';
import { PY_SESSIONS, writePythonStateDb } from './testing.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'source-db-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('decodeContent and toMs', () => {
  it("turns JSON multimodal content (both of the original's prefixes) into text", () => {
    const parts = JSON.stringify([
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: 'x' } },
    ]);
    for (const prefix of ['\u0000json:', '\u0001json:'])
      expect(decodeContent(`${prefix}${parts}`)).toBe('look\n[1 image of the Python Hermes not migrated]');
    expect(decodeContent('plain')).toBe('plain');
    expect(decodeContent(null)).toBeNull();
  });

  it('reads REAL seconds as ms and keeps ms', () => {
    expect(toMs(1740819601.5, 0)).toBe(1740819601500);
    expect(toMs(1740819601500, 0)).toBe(1740819601500);
    expect(toMs('x', 7)).toBe(7);
  });
});

describe('SourceDb', () => {
  it('reads through a private copy: no -wal/-shm appear beside the source', () => {
    const file = join(dir, 'state.db');
    writePythonStateDb(file, PY_SESSIONS);
    const before = readdirSync(dir);
    const db = SourceDb.open(file);
    const sessions = db.sessions();
    expect(sessions.map((s) => s.id)).toEqual(PY_SESSIONS.map((s) => s.id));
    const t = db.transcript(sessions[1]!);
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(readdirSync(dir)).toEqual(before);
    db.close();
    expect(readdirSync(dir)).toEqual(before);
  });

  it('reads an older layout (no active/compacted columns, the inline FTS index)', () => {
    const file = join(dir, 'state.db');
    const db = new Database(file);
    db.exec(`CREATE TABLE schema_version (version INTEGER NOT NULL);
      CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, model_config TEXT,
        system_prompt TEXT, parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
        message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0,
        output_tokens INTEGER DEFAULT 0);
      CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
        role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,
        token_count INTEGER, finish_reason TEXT);
      CREATE VIRTUAL TABLE messages_fts USING fts5(content, content=messages, content_rowid=id);
      INSERT INTO sessions (id, source, started_at) VALUES ('s1', 'cli', 1700000000);
      INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', 'old times', 1700000001),
        ('s1', 'session_meta', '{}', 1700000002);`);
    db.close();
    const src = SourceDb.open(file);
    const [s] = src.sessions();
    expect(s).toMatchObject({ id: 's1', title: null, cwd: null, startedAt: 1700000000000 });
    expect(src.transcript(s!)).toEqual({
      messages: [expect.objectContaining({ role: 'user', content: 'old times', timestamp: 1700000001000 })],
      skipped: { 'role "session_meta"': 1 },
    });
    src.close();
  });

  it("refuses, naming the file: missing, mid-write (-journal), not SQLite, not the original's", () => {
    const file = join(dir, 'state.db');
    expect(() => SourceDb.open(file)).toThrow(`${file}: no such file`);
    writePythonStateDb(file, []);
    writeFileSync(`${file}-journal`, 'x');
    expect(() => SourceDb.open(file)).toThrow(/state\.db-journal exists/);
    rmSync(`${file}-journal`);
    writeFileSync(file, 'not a database at all, just text'.repeat(200));
    expect(() => SourceDb.open(file)).toThrow(new RegExp(`^${file}: .*not a database`));
    const other = new Database(file + '2');
    other.exec('CREATE TABLE x (y)');
    other.close();
    expect(() => SourceDb.open(file + '2')).toThrow(/not a state\.db of the Python Hermes/);
    expect(readdirSync(dir).filter((n) => n.includes('hermes-migrate'))).toEqual([]);
  });
});
