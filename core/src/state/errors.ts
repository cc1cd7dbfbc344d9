/**
 * Errors of the SessionDB and the classification of SQLite errors that the retry and self-repair
 * logic depends on.
 */

/** Any failure of the SessionDB. The message always names the database file. */
export class SessionDBError extends Error {
  /**
   * @param file absolute path of the database file concerned.
   * @param code SQLite error code (`SQLITE_BUSY`, `SQLITE_CORRUPT_VTAB` …) or one of ours
   *   (`ENOENT`, `ENOSESSION`, `ENOMESSAGE`, `EINVAL`, `ESCHEMA`, `EAMBIGUOUS`, `ECORRUPT`,
   *   `EFOREIGN`: the file belongs to another program, e.g. the Python Hermes; foreign.ts).
   */
  constructor(
    message: string,
    readonly file: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SessionDBError';
  }
}

/** A session id that is not in the database (`code` `ENOSESSION`). */
export class SessionNotFoundError extends SessionDBError {
  constructor(
    readonly sessionId: string,
    file: string,
  ) {
    super(`no session "${sessionId}" in ${file}`, file, 'ENOSESSION');
    this.name = 'SessionNotFoundError';
  }
}

/** The `code` of a better-sqlite3 `SqliteError` (or of our own errors), else ''. */
export function sqliteCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * True for lock contention that a later attempt can win: `SQLITE_BUSY*` (another connection holds
 * the write lock, WAL recovery running) and `SQLITE_LOCKED*`. These are retried with jitter
 * (write-retry.ts); every other error is final.
 */
export function isLockError(err: unknown): boolean {
  const code = sqliteCode(err);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
  const msg = String((err as Error | null)?.message ?? '').toLowerCase();
  return msg.includes('database is locked') || msg.includes('database table is locked');
}

/**
 * True when an error looks like damage that the FTS self-repair can cure:
 * SQLITE_CORRUPT* (a damaged index, or "malformed database schema" from duplicate schema
 * entries), or a missing piece of the FTS schema ("no such table: main.messages_fts",
 * "vtable constructor failed: messages_fts"). Damage to `sessions`/`messages` themselves also
 * matches; the store locates corruption first (damage.ts) and reports that without repairing.
 */
export function isRepairableError(err: unknown): boolean {
  const code = sqliteCode(err);
  if (code.startsWith('SQLITE_CORRUPT')) return true;
  const msg = String((err as Error | null)?.message ?? '');
  return (
    /no such table: (main\.)?messages_fts/i.test(msg) ||
    /vtable constructor failed: messages_fts/i.test(msg) ||
    /malformed database schema/i.test(msg)
  );
}
