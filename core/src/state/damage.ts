/**
 * Telling a damaged search index from a damaged database (a damaged database gets a
 * clear error naming what is wrong, and nothing already stored is lost).
 *
 * SQLite reports both with the same words ("database disk image is malformed", SQLITE_CORRUPT).
 * The FTS index is derived data and is rebuilt by the self-repair (repair.ts). Damage anywhere
 * else — a page of `sessions` or `messages` (or one of their indexes), the schema, the file
 * header, a file that is not SQLite at all — cannot be cured by rebuilding the index: it gets a
 * `DatabaseDamagedError` that names the file, says nothing was deleted, and says how to recover.
 *
 * `locateDamage` finds out which: on its own read-only connection it runs
 * `PRAGMA quick_check(<table>)` (b-tree structure of the table and its indexes, SQLite ≥ 3.33)
 * and a full scan (decodes every record) of every table that is not part of the FTS index.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import Database from 'better-sqlite3';
import { SessionDBError, sqliteCode } from './errors.js';
import { FTS_TABLE } from './schema.js';
import { READER_BUSY_TIMEOUT_MS } from './write-retry.js';

/**
 * True for an error that says the bytes of the file are wrong: SQLITE_CORRUPT* ("database disk
 * image is malformed") or SQLITE_NOTADB ("file is not a database"). Lock errors, missing tables
 * and I/O errors are not.
 */
export function isCorruptionError(err: unknown): boolean {
  const code = sqliteCode(err);
  if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) return true;
  const msg = String((err as Error | null)?.message ?? '').toLowerCase();
  return msg.includes('database disk image is malformed') || msg.includes('file is not a database');
}

const isNotADatabase = (err: unknown): boolean =>
  sqliteCode(err).startsWith('SQLITE_NOTADB') ||
  String((err as Error | null)?.message ?? '')
    .toLowerCase()
    .includes('file is not a database');

/** Objects of the FTS index (its virtual table and shadow tables), which the self-repair rebuilds. */
const isFtsObject = (name: string): boolean => name === FTS_TABLE || name.startsWith(`${FTS_TABLE}_`);

/**
 * Where the damage of `file` lies outside the search index.
 * @param err the error that was seen; SQLITE_NOTADB means the header (no further check).
 * @returns descriptions of the damaged parts (`table "messages"`, `the file header`), empty when
 *   every table outside the FTS index reads back whole (the damage is the index's, or could not
 *   be located: e.g. duplicate schema entries, which the self-repair removes).
 */
export function locateDamage(file: string, err?: unknown): string[] {
  if (err !== undefined && isNotADatabase(err)) return ['the file header'];
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma(`busy_timeout = ${READER_BUSY_TIMEOUT_MS}`);
  } catch (openErr) {
    return isCorruptionError(openErr) ? ['the file header'] : [];
  }
  try {
    let tables: string[];
    try {
      tables = (
        db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL`).all() as {
          name: string;
        }[]
      )
        .map((r) => r.name)
        .filter((n) => !isFtsObject(n) && !n.startsWith('sqlite_'));
    } catch (schemaErr) {
      if (/malformed database schema/i.test(String((schemaErr as Error).message))) return [];
      if (isNotADatabase(schemaErr)) return ['the file header'];
      return isCorruptionError(schemaErr) ? ['the schema table (sqlite_master)'] : [];
    }
    const damaged: string[] = [];
    for (const table of tables) {
      if (!tableReadsBack(db, table)) damaged.push(`table "${table}"`);
    }
    return damaged;
  } finally {
    db.close();
  }
}

/** True when `table` and its indexes pass `quick_check` and every row decodes. */
function tableReadsBack(db: Database.Database, table: string): boolean {
  const quoted = `"${table.replace(/"/g, '""')}"`;
  try {
    const rows = db.prepare(`PRAGMA quick_check(${quoted})`).pluck().all() as string[];
    if (rows.length !== 1 || rows[0] !== 'ok') return false;
    for (const row of db.prepare(`SELECT * FROM ${quoted}`).raw().iterate()) void row;
    return true;
  } catch (err) {
    if (isCorruptionError(err)) return false;
    throw err;
  }
}

/** `2026-11-29T21-02-28`: a timestamp usable in a file name. */
const fileStamp = (d: Date): string => d.toISOString().slice(0, 19).replace(/:/g, '-');

/**
 * A session database whose stored data (not only its search index) is damaged. Nothing was
 * repaired, deleted or changed; the message says how to recover. `code` is `ECORRUPT`.
 */
export class DatabaseDamagedError extends SessionDBError {
  /** Where the damage was found (`table "messages"`, `the file header …`). */
  readonly damaged: readonly string[];

  /**
   * @param file absolute path of the database file.
   * @param damaged descriptions from `locateDamage` (non-empty).
   * @param cause the SQLite error that was seen.
   */
  constructor(file: string, damaged: readonly string[], cause: unknown) {
    const aside = `${file}.corrupt-${fileStamp(new Date())}`;
    const extra = ['-wal', '-shm'].filter((s) => existsSync(`${file}${s}`));
    const moves = [`mv "${file}" "${aside}"`, ...extra.map((s) => `mv "${file}${s}" "${aside}${s}"`)].join(
      ' && ',
    );
    super(
      `${file} is damaged: ${(cause as Error)?.message ?? String(cause)} (in ${damaged.join(', ')}). ` +
        `This is not the search index, so Hermes did not try to repair it; nothing was deleted or changed. ` +
        `To recover, stop everything that uses it (hermes gateway stop), move it aside — ${moves} — ` +
        `and Hermes starts a new, empty ${basename(file)}. Sessions can often be salvaged from the ` +
        `moved copy with the sqlite3 shell: sqlite3 "${aside}" .recover | sqlite3 recovered.db`,
      file,
      'ECORRUPT',
      { cause },
    );
    this.name = 'DatabaseDamagedError';
    this.damaged = damaged;
  }
}
