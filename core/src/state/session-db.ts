/**
 * `SessionDB`: sessions, transcripts, token counts and full-text search in `<home>/state.db`.
 *
 * - Many processes use one file at once (daemon, one-shot CLIs, cron): WAL mode; every write is
 *   one `BEGIN IMMEDIATE` transaction retried with random jitter within a time budget
 *   (write-retry.ts); a passive WAL checkpoint every `CHECKPOINT_EVERY` writes.
 * - Readers that must never block a writer open with `{readonly: true}`.
 * - A damaged search index is repaired once per process (repair.ts); transcripts are never touched.
 *
 * All methods are synchronous (better-sqlite3) and throw `SessionDBError` (which names the file)
 * on failure. Times are epoch milliseconds. The `sessions` table's methods are inherited from
 * `SessionRows` (session-rows.ts); this file holds the messages, search, export, queued prompts
 * and the other tables.
 */
import { isRepairableError, SessionDBError, SessionNotFoundError, sqliteCode } from './errors.js';
import { buildFtsQuery, hasCjk } from './fts-query.js';
import { ApiResponseTable } from './api-responses.js';
import { ModelCallTable, type ModelCallInput } from './model-calls.js';
import { UsageReports } from './usage-report.js';
import { PlatformTables } from './platform-tables.js';
import { TranscriptEdits } from './transcript-edits.js';
import { ftsSearch, likeSearch } from './search.js';
import { applyAutoTitle } from './session-picks.js';
import { SessionRows } from './session-rows.js';
import { MESSAGE_COLUMNS } from './schema.js';
import type { SessionDBOptions } from './store.js';
import type {
  GetMessagesOptions,
  MessagePatch,
  MessageRecord,
  NewMessage,
  QueuedPromptRecord,
  SearchHit,
  SearchOptions,
  SessionExport,
  SessionRecord,
} from './types.js';
import { messageValues, optionalText, patchColumns } from './validate.js';

/** Re-exported so callers need one import: options, checkpoint cadence and error classes. */
export { CHECKPOINT_EVERY, type SessionDBOptions } from './store.js';
export { SessionDBError, SessionNotFoundError } from './errors.js';

/** Options of `appendMessage(s)`. */
export interface AppendOptions {
  /** A queued prompt (`queued_prompts.prompt_id`) to remove in the same transaction. */
  unqueuePromptId?: string;
}

/** The session database of one home. Synchronous; one instance per process and file is enough. */
export class SessionDB extends SessionRows {
  private platformTables: PlatformTables | undefined;
  private apiResponseTable: ApiResponseTable | undefined;
  private transcriptEdits: TranscriptEdits | undefined;
  private modelCallTable: ModelCallTable | undefined;

  /**
   * Opens (and, unless read-only, creates or migrates) a session database. The folder and a
   * new file (mode 0600) are created as needed.
   * @param file usually `home.stateDbFile`.
   * @throws SessionDBError `ENOENT` (read-only, no file), `ESCHEMA` (not a session database, or
   *   written by a newer hermes), `EFOREIGN` (another program's file, e.g. the Python Hermes's:
   *   refused before anything is changed), `SQLITE_BUSY` (locked beyond the budget), or the SQLite code of
   *   a damage the self-repair could not cure.
   */
  static open(file: string, opts: SessionDBOptions = {}): SessionDB {
    const sdb = new SessionDB(file, opts);
    sdb.openConnection();
    return sdb;
  }

  // ── messages ────────────────────────────────────────────────────────────────────────────

  /**
   * Appends one message and bumps the session's `message_count` and `updated_at`, in one
   * transaction. `timestamp` defaults to now; `tool_calls` may be JSON text or the array itself.
   * @returns the new message id (increasing within the database).
   * @throws SessionNotFoundError; SessionDBError `EINVAL` naming a bad field.
   */
  appendMessage(sessionId: string, msg: NewMessage, opts: AppendOptions = {}): number {
    return this.appendMessages(sessionId, [msg], opts)[0]!;
  }

  /**
   * Appends several messages in one transaction (imports, benchmarks). Same rules as
   * `appendMessage`. The first user prompt of an untitled cli/tui session titles it
   * (session-picks.ts `autoTitleFrom`, made unique). With `opts.unqueuePromptId` the queued
   * prompt whose turn this message starts is removed in the same transaction, so a crash leaves
   * either the stored prompt or the user message, never neither.
   */
  appendMessages(sessionId: string, msgs: readonly NewMessage[], opts: AppendOptions = {}): number[] {
    const now = Date.now();
    const rows = msgs.map((m) => messageValues(m, this.file, now));
    if (rows.length === 0) return [];
    const prompt = msgs.find((m) => m.role === 'user' && m.content)?.content;
    return this.write('appendMessage', this.transcriptBudgetMs, () => {
      const bump = this.stmt(
        'UPDATE sessions SET message_count = message_count + ?, updated_at = ? WHERE id = ?',
      );
      if (bump.run(rows.length, now, sessionId).changes === 0)
        throw new SessionNotFoundError(sessionId, this.file);
      if (prompt) applyAutoTitle((sql) => this.stmt(sql), sessionId, prompt);
      const insert = this.stmt(
        `INSERT INTO messages (session_id, ${MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const ids = rows.map((r) => Number(insert.run(sessionId, ...r).lastInsertRowid));
      if (opts.unqueuePromptId !== undefined)
        this.stmt('DELETE FROM queued_prompts WHERE prompt_id = ?').run(opts.unqueuePromptId);
      return ids;
    });
  }

  /**
   * Changes fields of a stored message (`content`, `tool_calls`, `finish_reason`, `reasoning`,
   * `status`, `outcome`), e.g. to finish a reply persisted while it streamed. The index follows.
   * @throws SessionDBError `ENOMESSAGE` for an unknown id, `EINVAL` for another field.
   */
  updateMessage(id: number, patch: MessagePatch): void {
    const { sets, values } = patchColumns(patch, this.file);
    this.write('updateMessage', this.transcriptBudgetMs, () => {
      const row = this.stmt('SELECT session_id FROM messages WHERE id = ?').get(id) as
        { session_id: string } | undefined;
      if (!row) throw new SessionDBError(`no message ${id} in ${this.file}`, this.file, 'ENOMESSAGE');
      if (sets.length === 0) return;
      this.stmt(`UPDATE messages SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
      this.stmt('UPDATE sessions SET updated_at = ? WHERE id = ?').run(Date.now(), row.session_id);
    });
  }

  /** One message by id, or undefined. */
  getMessage(id: number): MessageRecord | undefined {
    return this.read('getMessage', () => this.stmt('SELECT * FROM messages WHERE id = ?').get(id)) as
      MessageRecord | undefined;
  }

  /**
   * A window of a session's transcript, oldest → newest. Without options: every message. With
   * `before`: messages with smaller ids; with `limit`: the newest `limit` of those (or, with
   * `after`, the oldest `limit` after it). An unknown session gives [].
   */
  getMessages(sessionId: string, opts: GetMessagesOptions = {}): MessageRecord[] {
    const where = ['session_id = ?'];
    const params: unknown[] = [sessionId];
    if (opts.before !== undefined) {
      where.push('id < ?');
      params.push(opts.before);
    }
    if (opts.after !== undefined) {
      where.push('id > ?');
      params.push(opts.after);
    }
    const limit = opts.limit === undefined ? -1 : Math.max(Math.floor(opts.limit), 0);
    const newestFirst = opts.after === undefined && limit >= 0;
    const sql = `SELECT * FROM messages WHERE ${where.join(' AND ')} ORDER BY id ${newestFirst ? 'DESC' : 'ASC'} LIMIT ?`;
    const rows = this.read('getMessages', () => this.stmt(sql).all(...params, limit)) as MessageRecord[];
    return newestFirst ? rows.reverse() : rows;
  }

  /** Number of stored messages of a session (of the whole database without an id). */
  countMessages(sessionId?: string): number {
    const row = this.read('countMessages', () =>
      sessionId === undefined
        ? this.stmt('SELECT count(*) AS n FROM messages').get()
        : this.stmt('SELECT count(*) AS n FROM messages WHERE session_id = ?').get(sessionId),
    ) as { n: number };
    return row.n;
  }

  /**
   * Full-text search over message content, tool names and tool-call arguments. Takes plain
   * words (see fts-query.ts: quotes, hyphens, dangling AND/OR are safe); best matches first.
   * CJK queries use a substring search. A damaged index is repaired (writers) or bypassed by a
   * substring search (read-only connections).
   * @returns at most `limit` (default 20) hits with snippets; [] for a query with no words.
   */
  search(query: string, opts: SearchOptions = {}): SearchHit[] {
    const q = buildFtsQuery(query);
    if (!q) return [];
    if (hasCjk(query)) return this.read('search', () => likeSearch(this.db, q.terms, opts));
    if (this.readonly) {
      try {
        return ftsSearch(this.db, q, opts, (sql) => this.stmt(sql));
      } catch (err) {
        if (!isRepairableError(err)) throw this.wrap('search', err);
        return this.read('search', () => likeSearch(this.db, q.terms, opts));
      }
    }
    return this.read('search', () => ftsSearch(this.db, q, opts, (sql) => this.stmt(sql)));
  }

  /** The whole session, read in one transaction. @throws SessionNotFoundError */
  exportSession(id: string): SessionExport {
    const out = this.read('exportSession', () => {
      this.stmt('BEGIN').run();
      try {
        const session = this.stmt('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRecord | undefined;
        const messages = this.stmt('SELECT * FROM messages WHERE session_id = ? ORDER BY id').all(
          id,
        ) as MessageRecord[];
        return session ? { session, messages } : undefined;
      } finally {
        this.stmt('COMMIT').run();
      }
    });
    if (!out) throw new SessionNotFoundError(id, this.file);
    return out;
  }

  // ── queued prompts (the daemon's per-session prompt queue, schema v3) ────────────────────

  /**
   * Stores a prompt waiting behind a running turn (kept across a daemon crash), with the JSON of
   * its attachments when it has some.
   * @throws SessionNotFoundError; SessionDBError `EINVAL` naming a bad field, `EEXIST` for a used id.
   */
  queuePrompt(
    sessionId: string,
    p: {
      promptId: string;
      text: string;
      by?: string;
      origin?: string;
      queuedAt?: number;
      attachments?: string;
    },
  ): void {
    const promptId = optionalText(p.promptId, 'promptId', this.file);
    const text = optionalText(p.text, 'text', this.file);
    if (!promptId || !text)
      throw new SessionDBError(`${this.file}: a queued prompt needs promptId and text`, this.file, 'EINVAL');
    const by = optionalText(p.by, 'by', this.file);
    const origin = optionalText(p.origin, 'origin', this.file);
    const attachments = optionalText(p.attachments, 'attachments', this.file);
    this.write('queuePrompt', this.transcriptBudgetMs, () => {
      if (!this.stmt('SELECT 1 FROM sessions WHERE id = ?').get(sessionId))
        throw new SessionNotFoundError(sessionId, this.file);
      try {
        this.stmt(
          'INSERT INTO queued_prompts (prompt_id, session_id, text, queued_by, queued_at, origin, attachments) VALUES (?, ?, ?, ?, ?, ?, ?)',
        ).run(promptId, sessionId, text, by, p.queuedAt ?? Date.now(), origin, attachments);
      } catch (err) {
        if (sqliteCode(err) !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw err;
        throw new SessionDBError(`${this.file}: prompt "${promptId}" is already queued`, this.file, 'EEXIST');
      }
    });
  }

  /** Removes a queued prompt (its turn started, or it was dropped). @returns false when it was not stored. */
  unqueuePrompt(promptId: string): boolean {
    return this.write(
      'unqueuePrompt',
      this.bookkeepingBudgetMs,
      () => this.stmt('DELETE FROM queued_prompts WHERE prompt_id = ?').run(promptId).changes > 0,
    );
  }

  /** A session's queued prompts, in the order they were queued. */
  queuedPrompts(sessionId: string): QueuedPromptRecord[] {
    return this.read('queuedPrompts', () =>
      this.stmt('SELECT * FROM queued_prompts WHERE session_id = ? ORDER BY rowid').all(sessionId),
    ) as QueuedPromptRecord[];
  }

  /** Moves the queued prompts of a session to another (context compression continued it there). */
  moveQueuedPrompts(fromId: string, toId: string): void {
    this.write('moveQueuedPrompts', this.bookkeepingBudgetMs, () =>
      this.stmt('UPDATE queued_prompts SET session_id = ? WHERE session_id = ?').run(toId, fromId),
    );
  }

  /** The chat platforms' delivery ledger and replay window (schema v4, platform-tables.ts). */
  get platforms(): PlatformTables {
    return (this.platformTables ??= new PlatformTables(this.file, {
      read: (op, fn) => this.read(op, fn),
      write: (op, fn) => this.write(op, this.bookkeepingBudgetMs, fn),
      stmt: (sql) => this.stmt(sql),
    }));
  }

  /** The API server's stored responses (api-responses.ts). */
  get apiResponses(): ApiResponseTable {
    return (this.apiResponseTable ??= new ApiResponseTable({
      read: (op, fn) => this.read(op, fn),
      write: (op, fn) => this.write(op, this.bookkeepingBudgetMs, fn),
      stmt: (sql) => this.stmt(sql),
    }));
  }

  /** Tokens and cost of every model call (schema v6, model-calls.ts). */
  get modelCalls(): ModelCallTable {
    return (this.modelCallTable ??= new ModelCallTable(
      {
        read: (op, fn) => this.read(op, fn),
        write: (op, fn) => this.write(op, this.transcriptBudgetMs, fn),
        stmt: (sql) => this.stmt(sql),
      },
      this.file,
      () => this.hasModelCalls(),
    ));
  }

  /**
   * Stores one model call's tokens and cost and adds its tokens to the session's counters
   * (`modelCalls.record`; the agent's `TranscriptStore.recordModelCall`).
   * @throws SessionNotFoundError; SessionDBError `EINVAL` for a negative count.
   */
  recordModelCall(sessionId: string, call: ModelCallInput): void {
    this.modelCalls.record(sessionId, call);
  }

  /** Usage and cost summed by model, day or in all (`hermes usage`, usage-report.ts). */
  get usageReports(): UsageReports {
    return new UsageReports({ read: (op, fn) => this.read(op, fn), stmt: (sql) => this.stmt(sql) }, () =>
      this.hasModelCalls(),
    );
  }

  private modelCallsPresent: boolean | undefined;

  /** True when `model_calls` exists (a read-only reader of a pre-v6 file has none). */
  private hasModelCalls(): boolean {
    return (this.modelCallsPresent ??= Boolean(
      this.read('hasModelCalls', () =>
        this.stmt(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'model_calls'`).get(),
      ),
    ));
  }

  /** Cutting a transcript (`/undo`, `/rewind`) and forking a session (transcript-edits.ts). */
  get transcript(): TranscriptEdits {
    return (this.transcriptEdits ??= new TranscriptEdits(this.file, {
      read: (op, fn) => this.read(op, fn),
      write: (op, fn) => this.write(op, this.transcriptBudgetMs, fn),
      stmt: (sql) => this.stmt(sql),
    }));
  }
}
