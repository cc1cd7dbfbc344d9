import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PY_SESSIONS, writePythonStateDb } from '../migrate/testing.js';
import { foreignKind } from './foreign.js';
import { SessionDB } from './session-db.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'foreign-db-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sha = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');

describe('a state.db of another program', () => {
  it("the Python Hermes's is refused by SessionDB (writer and read-only) before anything is changed", () => {
    const file = join(dir, 'state.db');
    writePythonStateDb(file, PY_SESSIONS);
    const before = sha(file);
    for (const readonly of [false, true]) {
      let err: unknown;
      try {
        SessionDB.open(file, { readonly }).close();
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ code: 'EFOREIGN', file });
      expect(String((err as Error).message)).toMatch(
        /session database of the Python Hermes[\s\S]*hermes migrate/,
      );
    }
    expect(sha(file)).toBe(before);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(
      (
        db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'messages_fts_a%'`).get() as {
          n: number;
        }
      ).n,
    ).toBe(0);
    db.close();
  });

  it('tells ours, the Python Hermes and other shapes apart', () => {
    const ours = join(dir, 'ours.db');
    SessionDB.open(ours).close();
    const other = join(dir, 'other.db');
    const o = new Database(other);
    o.exec('CREATE TABLE sessions (id TEXT, started REAL)');
    o.close();
    const py = join(dir, 'py.db');
    writePythonStateDb(py, []);
    const kind = (f: string): unknown => {
      const db = new Database(f, { readonly: true });
      try {
        return foreignKind(db);
      } finally {
        db.close();
      }
    };
    expect([kind(ours), kind(py), kind(other)]).toEqual([undefined, 'python-hermes', 'other']);
    expect(() => SessionDB.open(other)).toThrow(/not a session database of this hermes/);
  });
});
