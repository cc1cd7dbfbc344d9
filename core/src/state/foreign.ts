/**
 * Recognising a `state.db` that this hermes did not write — above all the one of the Python
 * Hermes, whose home is `~/.hermes` like ours. Opening such a file as ours would add our columns,
 * triggers and `user_version` to the other program's database, so the SessionDB refuses it before
 * any pragma or schema change (docs/migrate.md "One folder, two programs").
 */
import type Database from 'better-sqlite3';
import { SessionDBError } from './errors.js';

/** What a database with a `sessions` table is: `python-hermes`, `other` (not ours), or undefined (ours, or no tables yet). */
export type ForeignKind = 'python-hermes' | 'other' | undefined;

function columns(db: Database.Database, table: string): Set<string> {
  return new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
}

/**
 * Classifies an open database by its tables only (reads `sqlite_master` and `table_info`, never
 * writes). Ours always has `sessions.updated_at`; the Python Hermes's has a `schema_version` table
 * and `sessions.model_config` / `system_prompt` columns and no `updated_at`.
 * @throws what SQLite throws when the file is not a database.
 */
export function foreignKind(db: Database.Database): ForeignKind {
  const tables = new Set(
    (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map(
      (r) => r.name,
    ),
  );
  if (!tables.has('sessions')) return undefined;
  const cols = columns(db, 'sessions');
  if (cols.has('updated_at') && !tables.has('schema_version')) return undefined;
  if (tables.has('schema_version') || cols.has('model_config') || cols.has('system_prompt'))
    return 'python-hermes';
  return 'other';
}

/** The error for a database of another program; nothing of the file was changed. */
export function foreignDatabaseError(file: string, kind: Exclude<ForeignKind, undefined>): SessionDBError {
  const message =
    kind === 'python-hermes'
      ? `${file} is the session database of the Python Hermes: this hermes does not open or change it. ` +
        'Run `hermes migrate` to copy its sessions (and config, keys, memories, skills, cron jobs) into ' +
        "this hermes's layout, or set HERMES_HOME to a folder of this hermes's own (docs/migrate.md)"
      : `${file} is not a session database of this hermes (its "sessions" table has another shape); ` +
        'nothing was changed. Move it away or set HERMES_HOME to another folder';
  return new SessionDBError(message, file, 'EFOREIGN');
}

/**
 * Throws `EFOREIGN` when the open database belongs to another program.
 * @throws SessionDBError `EFOREIGN` naming the file and `hermes migrate`.
 */
export function assertOwnDatabase(db: Database.Database, file: string): void {
  const kind = foreignKind(db);
  if (kind) throw foreignDatabaseError(file, kind);
}
