import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionDB } from '../state/session-db.js';
import { assertNotPythonHome, PythonHomeError, stateDbKind } from './python-home.js';
import { writePythonStateDb } from './testing.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'python-home-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('stateDbKind and assertNotPythonHome', () => {
  it('tells the homes apart', () => {
    SessionDB.open(join(dir, 'ours.db')).close();
    writePythonStateDb(join(dir, 'py', 'state.db'), []);
    writeFileSync(join(dir, 'junk.db'), 'junk'.repeat(100));
    expect(stateDbKind(join(dir, 'ours.db'))).toBe('ours');
    expect(stateDbKind(join(dir, 'py', 'state.db'))).toBe('python-hermes');
    expect(stateDbKind(join(dir, 'junk.db'))).toBe('other');
    expect(stateDbKind(join(dir, 'none.db'))).toBe('none');
    expect(() => assertNotPythonHome(dir)).not.toThrow();
    expect(() => assertNotPythonHome(join(dir, 'py'))).toThrow(PythonHomeError);
    expect(() => assertNotPythonHome(join(dir, 'py'))).toThrow(
      /hermes migrate --from \S+py {3}brings it[\s\S]*py\/python-hermes-backup-<time>/,
    );
  });
});
