/**
 * Test fixture for SessionDB files (the state tests): a fresh `state.db` path in a
 * temp folder per test, an opener that records warnings, and clean-up of every handle and file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { SessionDB } from './session-db.js';

/** Per-test state of `useStateDbFile`; fields are reset before each test. */
export interface StateDbFileFixture {
  /** The temp folder of this test. */
  dir: string;
  /** `<dir>/state.db` (not created until opened). */
  file: string;
  /** Warnings SessionDB reported through `open`, in order. */
  warnings: string[];
  /** Opens `file` (closed after the test), recording its warnings. */
  open(opts?: { readonly?: boolean }): SessionDB;
}

/**
 * Registers `beforeEach`/`afterEach` giving each test a fresh database path; `reset` runs before
 * each test too (e.g. clearing module-level repair claims).
 */
export function useStateDbFile(prefix: string, reset?: () => void): StateDbFileFixture {
  const dbs: SessionDB[] = [];
  const fx: StateDbFileFixture = {
    dir: '',
    file: '',
    warnings: [],
    open(opts = {}) {
      const d = SessionDB.open(fx.file, { warn: (m) => fx.warnings.push(m), ...opts });
      dbs.push(d);
      return d;
    },
  };
  beforeEach(() => {
    fx.dir = mkdtempSync(join(tmpdir(), prefix));
    fx.file = join(fx.dir, 'state.db');
    fx.warnings = [];
    reset?.();
  });
  afterEach(() => {
    for (const d of dbs.splice(0)) d.close();
    rmSync(fx.dir, { recursive: true, force: true });
  });
  return fx;
}
