import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionDB } from '../state/session-db.js';
import { headerUserVersion, migrateOffer, tildePath } from './offer.js';
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
