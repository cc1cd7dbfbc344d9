/**
 * Self-repair of a damaged search index, least destructive step first:
 *
 *  1. rebuild the FTS index in place from `messages` (`INSERT INTO messages_fts(messages_fts)
 *     VALUES('rebuild')`) — the schema is not changed;
 *  2. remove duplicate schema entries (`writable_schema`, keep the lowest rowid of each
 *     (type, name)) — cures "malformed database schema … already exists", which breaks the very
 *     first statement on a connection; then rebuild as in 1;
 *  3. drop the whole FTS schema (table, shadow tables, triggers), recreate it and repopulate it
 *     from `messages` — the index is rebuilt, no transcript is lost.
 *
 * Before any step the database file (and its -wal) is copied beside it. The `sessions` and
 * `messages` tables are never written, dropped or de-duplicated. A repair runs at most once per
 * database file per process (`claimRepair`), so a damage it cannot cure does not loop.
 */
import { copyFileSync, existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { FTS_DDL, FTS_TABLE, FTS_TRIGGERS } from './schema.js';
import { newSessionId } from './session-id.js';
import { WRITER_BUSY_TIMEOUT_MS } from './write-retry.js';

/** One step that was tried. */
export interface RepairStep {
  step: 'backup' | 'rebuild' | 'dedupe-schema' | 'recreate-fts';
  ok: boolean;
  /** What happened (error text on failure, counts on success). */
  detail: string;
}

/** The outcome of `repairStateDb`. */
export interface RepairReport {
  /** True when the index verifies after the last step. */
  repaired: boolean;
  /** Path of the backup copy of the database file, or null when it could not be made. */
  backup: string | null;
  steps: RepairStep[];
}

const claimed = new Set<string>();

/**
 * Claims the one repair attempt this process may make on `file`.
 * @returns true the first time for a file, false afterwards.
 */
export function claimRepair(file: string): boolean {
  if (claimed.has(file)) return false;
  claimed.add(file);
  return true;
}

/** Forgets all claims. For tests only. */
export function resetRepairClaimsForTests(): void {
  claimed.clear();
}

function open(file: string): Database.Database {
  const db = new Database(file, { fileMustExist: true });
  db.unsafeMode(true); // allows writable_schema (SQLITE_DBCONFIG_DEFENSIVE off)
  db.pragma(`busy_timeout = ${Math.max(WRITER_BUSY_TIMEOUT_MS, 5_000)}`);
  return db;
}

/**
 * Checks that the index is usable: the FTS table and its triggers exist, FTS5's own
 * integrity-check (which compares the index with `messages`) passes, and a query runs.
 * @throws the SQLite error when it is not.
 */
export function verifyFts(db: Database.Database): void {
  const names = new Set(
    (
      db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table','trigger')`).all() as {
        name: string;
      }[]
    ).map((r) => r.name),
  );
  if (!names.has(FTS_TABLE)) throw new Error(`table ${FTS_TABLE} is missing`);
  for (const t of FTS_TRIGGERS) if (!names.has(t)) throw new Error(`trigger ${t} is missing`);
  db.prepare(`INSERT INTO ${FTS_TABLE}(${FTS_TABLE}) VALUES ('integrity-check')`).run();
  db.prepare(`SELECT rowid FROM ${FTS_TABLE} WHERE ${FTS_TABLE} MATCH '"x"' LIMIT 1`).all();
}

function backup(file: string): string {
  const stamp = newSessionId().slice(0, 15);
  const target = `${file}.repair-${stamp}.bak`;
  // Under the write lock no commit can land and the WAL cannot restart, so the copy of the main
  // file plus the -wal is a consistent snapshot. A schema too broken for BEGIN is copied as is.
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN IMMEDIATE');
  } catch {
    /* copy without the lock */
  }
  try {
    copyFileSync(file, target);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${target}-wal`);
  } finally {
    try {
      if (db?.inTransaction) db.exec('ROLLBACK');
      db?.close();
    } catch {
      /* ignore */
    }
  }
  return target;
}

function attempt(steps: RepairStep[], step: RepairStep['step'], fn: () => string): boolean {
  try {
    steps.push({ step, ok: true, detail: fn() });
    return true;
  } catch (err) {
    steps.push({ step, ok: false, detail: (err as Error).message });
    return false;
  }
}

function rebuild(file: string): string {
  const db = open(file);
  try {
    db.transaction(() =>
      db.prepare(`INSERT INTO ${FTS_TABLE}(${FTS_TABLE}) VALUES ('rebuild')`).run(),
    ).immediate();
    verifyFts(db);
    return 'index rebuilt from messages';
  } finally {
    db.close();
  }
}

/** Runs `fn` with `writable_schema` on, then bumps `schema_version` so other connections reload. */
function editSchema(db: Database.Database, fn: () => number): number {
  db.pragma('writable_schema = ON');
  try {
    return db
      .transaction(() => {
        const changed = fn();
        if (changed > 0) {
          const version = db.pragma('schema_version', { simple: true }) as number;
          db.pragma(`schema_version = ${version + 1}`);
        }
        return changed;
      })
      .immediate();
  } finally {
    db.pragma('writable_schema = OFF');
  }
}

function dedupeSchema(file: string): string {
  const db = open(file);
  let removed: number;
  try {
    removed = editSchema(
      db,
      () =>
        db
          .prepare(
            `DELETE FROM sqlite_master
             WHERE rowid NOT IN (SELECT min(rowid) FROM sqlite_master GROUP BY type, name)
               AND NOT (type = 'table' AND name IN ('sessions', 'messages'))`,
          )
          .run().changes,
    );
  } finally {
    db.close();
  }
  if (removed === 0) throw new Error('no duplicate schema entries');
  // A fresh connection parses the cleaned schema; then rebuild the index as in step 1.
  return `removed ${removed} duplicate schema entr${removed === 1 ? 'y' : 'ies'}; ${rebuild(file)}`;
}

function recreateFts(file: string): string {
  let db = open(file);
  let how = 'dropped';
  try {
    try {
      db.exec('BEGIN IMMEDIATE');
      for (const t of FTS_TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS ${t}`);
      db.exec(`DROP TABLE IF EXISTS ${FTS_TABLE}`);
      db.exec('COMMIT');
    } catch {
      // The virtual table is too damaged to drop: remove its schema entries directly.
      if (db.inTransaction) db.exec('ROLLBACK');
      editSchema(
        db,
        () =>
          db
            .prepare(
              `DELETE FROM sqlite_master
               WHERE name = '${FTS_TABLE}' OR name LIKE '${FTS_TABLE}\\_%' ESCAPE '\\'
                  OR (type = 'trigger' AND name IN (${FTS_TRIGGERS.map((t) => `'${t}'`).join(', ')}))`,
            )
            .run().changes,
      );
      how = 'removed from the schema';
    }
    // Release the pages the old index owned (also those orphaned by whatever damaged it).
    // Best effort: other processes' open transactions can make VACUUM busy; the index is still
    // rebuilt, only free space is not reclaimed this time.
    db.close();
    db = open(file);
    let vacuumed = true;
    try {
      db.exec('VACUUM');
    } catch {
      vacuumed = false;
    }
    db.transaction(() => {
      db.exec(FTS_DDL);
      db.prepare(`INSERT INTO ${FTS_TABLE}(${FTS_TABLE}) VALUES ('rebuild')`).run();
    }).immediate();
    verifyFts(db);
    const n = db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number };
    return `FTS schema ${how}, recreated and repopulated from ${n.n} messages${vacuumed ? '' : ' (VACUUM skipped: busy)'}`;
  } finally {
    db.close();
  }
}

/**
 * Repairs the search index of `file`; see the module comment for the steps. The
 * caller closes its own connections first and reopens them afterwards (the schema may change).
 * Does not check `claimRepair`; the caller does.
 * @returns a report; `repaired` false means even step 3 failed (or no backup could be made, in
 *   which case nothing was changed).
 */
export function repairStateDb(file: string): RepairReport {
  const steps: RepairStep[] = [];
  let backupPath: string | null = null;
  const backedUp = attempt(steps, 'backup', () => {
    backupPath = backup(file);
    return `copied to ${backupPath}`;
  });
  if (!backedUp) return { repaired: false, backup: null, steps };
  const repaired =
    attempt(steps, 'rebuild', () => rebuild(file)) ||
    attempt(steps, 'dedupe-schema', () => dedupeSchema(file)) ||
    attempt(steps, 'recreate-fts', () => recreateFts(file));
  return { repaired, backup: backupPath, steps };
}
