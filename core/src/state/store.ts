/**
 * `StateStore`: the connection machinery under `SessionDB` — opening writer
 * or read-only connections, write transactions (`BEGIN IMMEDIATE`) retried with jitter inside a
 * time budget, a passive WAL checkpoint every `CHECKPOINT_EVERY` writes, and one self-repair
 * attempt per process when the search index turns out to be damaged. Damage outside the index
 * (the tables themselves, the header, not SQLite at all) is never "repaired": it is reported as a
 * `DatabaseDamagedError` that names the file and says how to recover (damage.ts).
 */
import type Database from 'better-sqlite3';
import {
  applyJournalMode,
  applyWriterPragmas,
  defaultWarn,
  openReader,
  openWriter,
  type WarnFn,
} from './connection.js';
import { DatabaseDamagedError, isCorruptionError, locateDamage } from './damage.js';
import { assertOwnDatabase } from './foreign.js';
import { isLockError, isRepairableError, SessionDBError, sqliteCode } from './errors.js';
import { claimRepair, repairStateDb } from './repair.js';
import { createSchema, inspectSchema, newerSchemaError, SCHEMA_VERSION, schemaIsCurrent } from './schema.js';
import { BOOKKEEPING_WRITE_BUDGET_MS, TRANSCRIPT_WRITE_BUDGET_MS, withWriteRetry } from './write-retry.js';

/** Writes between two passive WAL checkpoints. */
export const CHECKPOINT_EVERY = 50;

/** Options of `SessionDB.open`. */
export interface SessionDBOptions {
  /** Open read-only: no schema set-up, no write lock ever; writes throw `EREADONLY`. */
  readonly?: boolean;
  /** Receives warnings (WAL fallback, self-repair); default: one line on stderr. */
  warn?: WarnFn;
  /**
   * Time budgets of lock retries, ms. Defaults: transcript writes
   * `TRANSCRIPT_WRITE_BUDGET_MS` (60 s), bookkeeping writes and reads `BOOKKEEPING_WRITE_BUDGET_MS` (20 s).
   */
  budgets?: { transcriptMs?: number; bookkeepingMs?: number };
  /**
   * False: once open, a write never waits for another process's lock — `busy_timeout` 0 and one
   * attempt, failing with `SQLITE_BUSY` at once — so a caller on an event loop (the daemon) can
   * retry it asynchronously. Opening still waits within the budgets. Default true.
   */
  waitForLocks?: boolean;
}

/** Base class of `SessionDB`; see the module comment. Not for direct use. */
export class StateStore {
  /** The live connection (replaced after a repair). */
  protected db!: Database.Database;
  private readonly stmts = new Map<string, Database.Statement>();
  private writesSinceCheckpoint = 0;
  private mode = 'wal';
  private closed = false;
  /** Absolute path of the database file. */
  readonly file: string;
  /** True for a read-only connection. */
  readonly readonly: boolean;
  /** Where warnings go. */
  protected readonly warn: WarnFn;
  /** Lock-retry budget of transcript writes (messages, new sessions), ms. */
  protected readonly transcriptBudgetMs: number;
  /** Lock-retry budget of bookkeeping writes and of reads, ms. */
  protected readonly bookkeepingBudgetMs: number;
  /** See `SessionDBOptions.waitForLocks`. */
  private readonly waitForLocks: boolean;
  /** The damage this connection reported; once set, every later write is refused with it. */
  private damage: DatabaseDamagedError | undefined;

  protected constructor(file: string, opts: SessionDBOptions) {
    this.file = file;
    this.readonly = opts.readonly === true;
    this.warn = opts.warn ?? defaultWarn;
    this.transcriptBudgetMs = opts.budgets?.transcriptMs ?? TRANSCRIPT_WRITE_BUDGET_MS;
    this.bookkeepingBudgetMs = opts.budgets?.bookkeepingMs ?? BOOKKEEPING_WRITE_BUDGET_MS;
    this.waitForLocks = opts.waitForLocks !== false;
  }

  /**
   * Opens the connection: read-only (schema only inspected) or writer (journal mode, pragmas,
   * schema created or migrated; a damaged index repaired once).
   * @throws SessionDBError naming the file; `DatabaseDamagedError` (`ECORRUPT`) when the file is
   *   damaged beyond the search index or is not SQLite at all.
   */
  protected openConnection(): void {
    if (this.readonly) {
      this.db = openReader(this.file);
      try {
        assertOwnDatabase(this.db, this.file);
        const state = inspectSchema(this.db);
        if (state.version > SCHEMA_VERSION) throw newerSchemaError(this.file, state.version);
        if (!state.hasCore) {
          throw new SessionDBError(`${this.file} is not a hermes session database`, this.file, 'ESCHEMA');
        }
        this.mode = String(this.db.pragma('journal_mode', { simple: true }));
      } catch (err) {
        this.db.close();
        throw this.damageOf(err) ?? this.wrap('open', err);
      }
      return;
    }
    try {
      this.connect();
    } catch (err) {
      let repaired = false;
      try {
        repaired = !(err instanceof SessionDBError) && this.tryRepair(err);
      } finally {
        if (!repaired) this.closeQuietly();
      }
      if (repaired) return;
      throw this.wrap('open', err);
    }
  }

  /** The journal mode in effect: `wal`, or `delete` after the network-file-system fallback. */
  get journalMode(): string {
    return this.mode;
  }

  /**
   * Runs a PASSIVE WAL checkpoint when `CHECKPOINT_EVERY` writes have happened since the last
   * one (called after every write). Never waits for, nor fails because of, other connections.
   * @returns true when a checkpoint ran.
   */
  checkpointIfDue(): boolean {
    if (this.readonly || this.closed || this.writesSinceCheckpoint < CHECKPOINT_EVERY) return false;
    this.writesSinceCheckpoint = 0;
    if (this.mode !== 'wal') return false;
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)');
      return true;
    } catch {
      return false; // a busy checkpoint is tried again after the next 50 writes
    }
  }

  /** Closes the connection. Idempotent; later calls of other methods throw `ECLOSED`. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.closeQuietly();
  }

  /** A cached prepared statement of the current connection. */
  protected stmt(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  /**
   * Runs `fn` as one write transaction (BEGIN IMMEDIATE … COMMIT), retried with jitter while
   * other writers hold the lock (up to `budgetMs`), repaired and retried once on index damage,
   * then counts the write for checkpointing. A SessionDBError thrown by `fn` rolls back and
   * propagates unchanged.
   * @throws SessionDBError (`EREADONLY`, `ECLOSED`, `SQLITE_BUSY` after the budget, …).
   */
  protected write<T>(op: string, budgetMs: number, fn: () => T): T {
    this.assertOpen(op);
    if (this.readonly)
      throw new SessionDBError(`${op}: ${this.file} is open read-only`, this.file, 'EREADONLY');
    // a file found damaged is not written again (`hermes chat -q` would otherwise keep appending)
    if (this.damage) throw this.damage;
    const txn = (): T => {
      this.stmt('BEGIN IMMEDIATE').run();
      try {
        const result = fn();
        this.stmt('COMMIT').run();
        return result;
      } catch (err) {
        if (this.db.inTransaction) this.stmt('ROLLBACK').run();
        throw err;
      }
    };
    const result = this.withRepair(op, () =>
      withWriteRetry(txn, { budgetMs: this.waitForLocks ? budgetMs : 0 }),
    );
    this.writesSinceCheckpoint++;
    this.checkpointIfDue();
    return result;
  }

  /** Runs a read; lock errors are retried (bookkeeping budget), index damage repaired once (writers). */
  protected read<T>(op: string, fn: () => T): T {
    this.assertOpen(op);
    return this.withRepair(op, () => withWriteRetry(fn, { budgetMs: this.bookkeepingBudgetMs }));
  }

  /** Wraps any error as a SessionDBError naming the file and the operation. */
  protected wrap(op: string, err: unknown): SessionDBError {
    if (err instanceof SessionDBError) return err;
    const code = sqliteCode(err) || (isLockError(err) ? 'SQLITE_BUSY' : 'EIO');
    const message = `${op} on ${this.file}: ${(err as Error)?.message ?? String(err)}`;
    return new SessionDBError(message, this.file, code, { cause: err });
  }

  private assertOpen(op: string): void {
    if (this.closed) throw new SessionDBError(`${op}: ${this.file} is closed`, this.file, 'ECLOSED');
  }

  private withRepair<T>(op: string, run: () => T): T {
    try {
      return this.withRepairOnce(op, run);
    } catch (err) {
      if (err instanceof DatabaseDamagedError) this.damage = err;
      throw err;
    }
  }

  private withRepairOnce<T>(op: string, run: () => T): T {
    try {
      return run();
    } catch (err) {
      if (err instanceof SessionDBError || !this.tryRepair(err)) throw this.wrap(op, err);
      try {
        return run();
      } catch (err2) {
        throw this.wrap(op, err2);
      }
    }
  }

  /** Opens the writer connection and brings the schema up to date (several openers may race). */
  private connect(): void {
    const db = openWriter(this.file);
    try {
      // before any pragma or schema change: another program's file is never altered
      withWriteRetry(() => assertOwnDatabase(db, this.file), { budgetMs: this.bookkeepingBudgetMs });
      this.mode = withWriteRetry(() => applyJournalMode(db, this.file, this.warn), {
        budgetMs: this.bookkeepingBudgetMs,
      });
      applyWriterPragmas(db, this.mode);
      if (!schemaIsCurrent(inspectSchema(db))) {
        const create = db.transaction(() => createSchema(db, this.file));
        const { rebuiltFts } = withWriteRetry(() => create.immediate(), {
          budgetMs: this.transcriptBudgetMs,
        });
        if (rebuiltFts)
          this.warn(`${this.file}: the search index was missing; rebuilt it from the stored messages`);
      }
    } catch (err) {
      db.close();
      throw err;
    }
    if (!this.waitForLocks) db.pragma('busy_timeout = 0');
    this.stmts.clear();
    this.db = db;
  }

  /**
   * For a corruption error (damage.ts): the `DatabaseDamagedError` when the damage lies outside
   * the search index, else undefined (index damage, or it could not be located, e.g. the check
   * itself was locked out).
   */
  private damageOf(err: unknown): DatabaseDamagedError | undefined {
    if (err instanceof SessionDBError || !isCorruptionError(err)) return undefined;
    try {
      const damaged = locateDamage(this.file, err);
      return damaged.length > 0 ? new DatabaseDamagedError(this.file, damaged, err) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Runs the self-repair when `err` looks like index damage, this is a writer and
   * no repair of this file was tried in this process yet; then reconnects. Corruption is first
   * located: damage outside the index is reported, never repaired (readers too).
   * @returns true when repaired and reconnected (the caller retries its operation once).
   * @throws DatabaseDamagedError when the tables, schema or header are damaged (nothing changed);
   *   SessionDBError when the connection cannot be reopened after a repair.
   */
  private tryRepair(err: unknown): boolean {
    const damaged = this.damageOf(err);
    if (damaged) throw damaged;
    if (this.readonly || !isRepairableError(err) || !claimRepair(this.file)) return false;
    this.closeQuietly();
    const report = repairStateDb(this.file);
    const last = report.steps[report.steps.length - 1];
    this.warn(
      `${this.file}: search index damaged (${(err as Error).message}); ` +
        (report.repaired ? `repaired (${last?.step}: ${last?.detail})` : `repair failed (${last?.detail})`) +
        (report.backup ? `; backup at ${report.backup}` : ''),
    );
    try {
      this.connect();
    } catch (connectErr) {
      this.closed = true;
      throw this.wrap('reopen after repair', connectErr);
    }
    return report.repaired;
  }

  /** Closes the connection ignoring errors, without marking the store closed (repair, failed open). */
  private closeQuietly(): void {
    this.stmts.clear();
    try {
      this.db?.close();
    } catch {
      /* already closed or never opened */
    }
  }
}
