import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionDB } from '../state/session-db.js';
import { headerUserVersion, migrateOffer, tildePath, userVersion, walUserVersion } from './offer.js';
import { writePythonStateDb } from './testing.js';

let user: string;
beforeEach(() => (user = mkdtempSync(join(tmpdir(), 'offer-'))));
afterEach(() => rmSync(user, { recursive: true, force: true }));

describe('migrateOffer', () => {
  it('names hermes migrate once, when this root is empty and ~/.hermes holds the original', () => {
    writePythonStateDb(join(user, '.hermes', 'state.db'), []);
    const root = join(user, 'ours');
    expect(migrateOffer(root, user)).toMatch(
      /Python Hermes seems to be at ~\/\.hermes\. `hermes migrate --from ~\/\.hermes`/,
    );
    expect(migrateOffer(root, user)).toBeUndefined();
  });

  it('says nothing when this root has sessions or config, is ~/.hermes itself, or no original is there', () => {
    const root = join(user, 'ours');
    expect(migrateOffer(root, user)).toBeUndefined();
    writePythonStateDb(join(user, '.hermes', 'state.db'), []);
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'config.yaml'), '_config_version: 2\n');
    expect(migrateOffer(root, user)).toBeUndefined();
    expect(migrateOffer(join(user, '.hermes'), user)).toBeUndefined();
  });
});

/**
 * Copies a WAL database at `from` to `to` while a connection holds it open with its log never
 * written back: what a home looks like after its daemon was killed (`kill -9`).
 */
function copyUncheckpointed(from: string, to: string, write: (db: Database.Database) => void): void {
  const db = new Database(from);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    write(db);
    mkdirSync(join(to, '..'), { recursive: true });
    copyFileSync(from, to);
    copyFileSync(`${from}-wal`, `${to}-wal`);
  } finally {
    db.close();
  }
}

describe('migrateOffer with a log not written back', () => {
  it('stays quiet when ~/.hermes is a home of this hermes whose daemon died before writing its log back', () => {
    const candidate = join(user, '.hermes', 'state.db');
    copyUncheckpointed(join(user, 'work.db'), candidate, (db) => {
      db.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY)');
      db.pragma('user_version = 6');
    });
    expect(headerUserVersion(candidate)).toBe(0);
    expect(walUserVersion(candidate)).toBe(6);
    expect(userVersion(candidate)).toBe(6);
    expect(migrateOffer(join(user, 'ours'), user)).toBeUndefined();
  });

  it('still names hermes migrate for an original whose log holds version 0', () => {
    const candidate = join(user, '.hermes', 'state.db');
    copyUncheckpointed(join(user, 'py.db'), candidate, (db) => {
      db.exec('CREATE TABLE schema_version (version INTEGER)');
      db.exec('INSERT INTO schema_version VALUES (6)');
    });
    expect(walUserVersion(candidate)).toBe(0);
    expect(migrateOffer(join(user, 'ours'), user)).toMatch(/Python Hermes seems to be at ~\/\.hermes/);
  });

  it('ignores a log without a committed page 1, or one that is not a WAL', () => {
    const file = join(user, 'x.db');
    const db = new Database(file);
    db.exec('CREATE TABLE t (x)');
    db.close();
    writeFileSync(`${file}-wal`, 'not a wal'.repeat(10));
    expect(walUserVersion(file)).toBeUndefined();
    expect(userVersion(file)).toBe(0);
    expect(walUserVersion(join(user, 'missing.db'))).toBeUndefined();
  });
});

describe('headerUserVersion', () => {
  it('reads the SQLite header: ours ≥ 1, the original 0, anything else undefined', () => {
    SessionDB.open(join(user, 'ours.db')).close();
    writePythonStateDb(join(user, 'py.db'), []);
    writeFileSync(join(user, 'text'), 'x'.repeat(200));
    expect(headerUserVersion(join(user, 'ours.db'))).toBeGreaterThanOrEqual(1);
    expect(headerUserVersion(join(user, 'py.db'))).toBe(0);
    expect(headerUserVersion(join(user, 'text'))).toBeUndefined();
    expect(headerUserVersion(join(user, 'missing'))).toBeUndefined();
    expect(tildePath(join(user, 'a'), user)).toBe('~/a');
  });
});
