/**
 * Opening SQLite connections to `state.db` with these pragmas: WAL with a
 * fallback to the rollback journal on file systems that cannot do WAL, `checkpoint_fullfsync`
 * on macOS, short busy timeouts for writers, read-only connections for readers.
 */
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SessionDBError, sqliteCode } from './errors.js';
import { READER_BUSY_TIMEOUT_MS, WRITER_BUSY_TIMEOUT_MS } from './write-retry.js';

/** Receives one-line warnings (default: written to stderr). */
export type WarnFn = (message: string) => void;

/** Default warning sink: one line on stderr, prefixed `hermes:`. */
export const defaultWarn: WarnFn = (message) => {
  process.stderr.write(`hermes: warning: ${message}\n`);
};

/**
 * Errors of `PRAGMA journal_mode=WAL` that mean "this file system cannot do WAL" (NFS, SMB/CIFS,
 * some FUSE mounts, WSL1). Only these lead to the rollback-journal fallback; anything else is
 * rethrown.
 */
export const WAL_INCOMPATIBLE_MARKERS = ['locking protocol', 'not authorized', 'disk i/o error'] as const;

/** Files whose WAL fallback warning was already printed by this process (once per file). */
const warnedWalFallback = new Set<string>();

/** The subset of a connection that `applyJournalMode` needs (lets tests simulate NFS). */
export interface PragmaTarget {
  pragma(source: string, options?: { simple?: boolean }): unknown;
}

/**
 * Puts a writer connection into WAL mode.
 * - Already WAL: nothing to do.
 * - `PRAGMA journal_mode=WAL` fails with a known WAL-incompatibility error, or the file system
 *   silently keeps another mode: the rollback journal (`DELETE`) stays in use and one warning
 *   per file per process is emitted.
 * - Any other error is rethrown (e.g. SQLITE_BUSY, which the caller retries).
 * @returns the journal mode in effect, lower case (`wal`, `delete` …).
 */
export function applyJournalMode(db: PragmaTarget, file: string, warn: WarnFn = defaultWarn): string {
  const current = String(db.pragma('journal_mode', { simple: true })).toLowerCase();
  if (current === 'wal') return current;
  let mode: string;
  try {
    mode = String(db.pragma('journal_mode = WAL', { simple: true })).toLowerCase();
  } catch (err) {
    const msg = String((err as Error).message).toLowerCase();
    if (!WAL_INCOMPATIBLE_MARKERS.some((m) => msg.includes(m))) throw err;
    mode = 'delete';
    try {
      mode = String(db.pragma('journal_mode = DELETE', { simple: true })).toLowerCase();
    } catch {
      // keep whatever mode the file already had
    }
    warnOnce(
      file,
      warn,
      `${file}: WAL is not supported here (${(err as Error).message}); using the rollback journal (readers wait for writers)`,
    );
    return mode;
  }
  if (mode !== 'wal') {
    warnOnce(
      file,
      warn,
      `${file}: the file system refused WAL mode (got "${mode}"); using the rollback journal`,
    );
  }
  return mode;
}

function warnOnce(file: string, warn: WarnFn, message: string): void {
  if (warnedWalFallback.has(file)) return;
  warnedWalFallback.add(file);
  warn(message);
}

/**
 * Pragmas every writer connection gets after the journal mode is set:
 * `synchronous=NORMAL` in WAL (a process crash loses nothing committed; FULL on macOS and in
 * rollback mode), a 64 MiB WAL size limit, and on macOS `checkpoint_fullfsync=1` so that a
 * checkpoint is a real write barrier.
 */
export function applyWriterPragmas(db: Database.Database, journalMode: string): void {
  const darwin = process.platform === 'darwin';
  db.pragma(`synchronous = ${journalMode === 'wal' && !darwin ? 'NORMAL' : 'FULL'}`);
  db.pragma('journal_size_limit = 67108864');
  db.pragma('foreign_keys = ON');
  if (darwin) db.pragma('checkpoint_fullfsync = 1');
}

/**
 * Opens a writer connection (no pragmas beyond the busy timeout; see `applyJournalMode`).
 * Creates the parent folder and, for a new database, an empty file with mode 0600 (SQLite gives
 * its -wal and -shm files the same mode).
 * @throws SessionDBError naming the file when it cannot be opened.
 */
export function openWriter(file: string): Database.Database {
  try {
    mkdirSync(dirname(file), { recursive: true });
    if (!existsSync(file)) {
      try {
        closeSync(openSync(file, 'wx', 0o600));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    const db = new Database(file);
    db.pragma(`busy_timeout = ${WRITER_BUSY_TIMEOUT_MS}`);
    return db;
  } catch (err) {
    throw new SessionDBError(
      `cannot open ${file}: ${(err as Error).message}`,
      file,
      sqliteCode(err) || 'EIO',
      { cause: err },
    );
  }
}

/**
 * Opens a read-only connection (`SQLITE_OPEN_READONLY`): it never takes a write lock and never
 * runs schema set-up, so polling another profile's database cannot block its writers.
 * Writes through it fail with SQLITE_READONLY.
 * @throws SessionDBError code `ENOENT` when the file does not exist.
 */
export function openReader(file: string): Database.Database {
  if (!existsSync(file)) throw new SessionDBError(`no session database at ${file}`, file, 'ENOENT');
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma(`busy_timeout = ${READER_BUSY_TIMEOUT_MS}`);
    return db;
  } catch (err) {
    throw new SessionDBError(
      `cannot open ${file} read-only: ${(err as Error).message}`,
      file,
      sqliteCode(err) || 'EIO',
      { cause: err },
    );
  }
}
