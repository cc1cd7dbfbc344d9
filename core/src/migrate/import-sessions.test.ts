import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionDB } from '../state/session-db.js';
import { importSessions } from './import-sessions.js';
import { SourceDb } from './source-db.js';
import { PY_SESSIONS, writePythonStateDb } from './testing.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'import-sessions-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('importSessions', () => {
  it('gives a new id when the original one is taken here, keeps titles unique, records the mapping', () => {
    const target = join(dir, 'ours.db');
    const ours = SessionDB.open(target);
    ours.createSession({ source: 'tui', id: PY_SESSIONS[0]!.id, title: 'Plan the garden' });
    ours.close();
    writePythonStateDb(join(dir, 'py.db'), PY_SESSIONS);
    const src = SourceDb.open(join(dir, 'py.db'));
    try {
      expect(importSessions(src, target, false)).toMatchObject({ sessions: 3, messages: 8 });
    } finally {
      src.close();
    }
    const db = new Database(target, { readonly: true });
    const row = db
      .prepare('SELECT session_id FROM migrated_sessions WHERE source_id = ?')
      .get(PY_SESSIONS[0]!.id) as {
      session_id: string;
    };
    expect(row.session_id).not.toBe(PY_SESSIONS[0]!.id);
    expect(db.prepare('SELECT title FROM sessions WHERE id = ?').get(row.session_id)).toEqual({
      title: 'Plan the garden (2)',
    });
    db.close();
  });

  it('a dry run creates nothing; a run cut short continues with the sessions not yet recorded', () => {
    const target = join(dir, 'ours.db');
    writePythonStateDb(join(dir, 'py.db'), PY_SESSIONS);
    const src = SourceDb.open(join(dir, 'py.db'));
    try {
      expect(importSessions(src, target, true)).toMatchObject({ sessions: 3, messages: 8 });
      expect(existsSync(target)).toBe(false);
      importSessions(src, target, false);
      // as if the run had stopped before the last session's transaction
      const db = new Database(target);
      const last = PY_SESSIONS[2]!.id;
      db.prepare('DELETE FROM messages WHERE session_id = ?').run(last);
      db.prepare('DELETE FROM sessions WHERE id = ?').run(last);
      db.prepare('DELETE FROM migrated_sessions WHERE source_id = ?').run(last);
      db.close();
      expect(importSessions(src, target, false)).toMatchObject({
        sessions: 1,
        messages: 2,
        alreadyMigrated: 2,
      });
      const ours = SessionDB.open(target, { readonly: true });
      expect(ours.countMessages()).toBe(8);
      ours.close();
    } finally {
      src.close();
    }
  });
});
