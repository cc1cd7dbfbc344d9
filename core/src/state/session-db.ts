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
 * on failure. Times are epoch milliseconds.
 */
import { isRepairableError, SessionDBError, SessionNotFoundError, sqliteCode } from './errors.js';
import { buildFtsQuery, hasCjk } from './fts-query.js';
import { ApiResponseTable } from './api-responses.js';
import { ModelCallTable, type ModelCallInput } from './model-calls.js';
import { UsageReports } from './usage-report.js';
import { PlatformTables } from './platform-tables.js';
import { TranscriptEdits } from './transcript-edits.js';
import { ftsSearch, likeSearch } from './search.js';
import { newSessionId, sessionIdProblem } from './session-id.js';
import {
  applyAutoTitle,
  continueCandidate,
  firstPrompts,
  titleHolder,
  uniqueTitle,
} from './session-picks.js';
import { MESSAGE_COLUMNS } from './schema.js';
import { StateStore, type SessionDBOptions } from './store.js';
import type {
  CreateSessionOptions,
  GetMessagesOptions,
  ListSessionsOptions,
  MessagePatch,
  MessageRecord,
  NewMessage,
  QueuedPromptRecord,
  SearchHit,
  SearchOptions,
  SessionExport,
  SessionRecord,
} from './types.js';
import {
  count,
  MAX_TITLE_CHARS,
  messageValues,
  normalizeTitle,
  optionalText,
  patchColumns,
  sessionState,
} from './validate.js';

/** Re-exported so callers need one import: options, checkpoint cadence and error classes. */
export { CHECKPOINT_EVERY, type SessionDBOptions } from './store.js';
export { SessionDBError, SessionNotFoundError } from './errors.js';

/** Options of `appendMessage(s)`. */
export interface AppendOptions {
  /** A queued prompt (`queued_prompts.prompt_id`) to remove in the same transaction. */
  unqueuePromptId?: string;
}

/** The session database of one home. Synchronous; one instance per process and file is enough. */
export class SessionDB extends StateStore {
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

  // ── sessions ────────────────────────────────────────────────────────────────────────────

  /**
   * Creates a session in state `active`. A title another session has gets the next free number
   * ("title (2)"), so a title names one session (session-picks.ts).
   * @throws SessionDBError `EINVAL` (bad source/id/title), `EEXIST` (explicit id already used).
   */
  createSession(opts: CreateSessionOptions): SessionRecord {
    const source = optionalText(opts.source, 'source', this.file);
    if (!source) throw new SessionDBError(`${this.file}: session source is required`, this.file, 'EINVAL');
    if (opts.id !== undefined) {
      const problem = sessionIdProblem(opts.id);
      if (problem) throw new SessionDBError(`${this.file}: ${problem}`, this.file, 'EINVAL');
    }
    const title = normalizeTitle(opts.title, this.file);
    const now = opts.startedAt ?? Date.now();
    const values = [
      source,
      optionalText(opts.model, 'model', this.file),
      optionalText(opts.cwd, 'cwd', this.file),
      optionalText(opts.parentSessionId, 'parentSessionId', this.file),
      now,
      now,
    ];
    for (let tries = 0; ; tries++) {
      const id = opts.id ?? newSessionId(new Date(now));
      try {
        this.write('createSession', this.transcriptBudgetMs, () =>
          this.stmt(
            `INSERT INTO sessions (id, title, source, model, cwd, parent_session_id, started_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          ).run(id, title && uniqueTitle((sql) => this.stmt(sql), title), ...values),
        );
        return this.getSession(id)!;
      } catch (err) {
        if (sqliteCode(err) !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw err;
        if (opts.id !== undefined) {
          throw new SessionDBError(`${this.file}: session "${id}" already exists`, this.file, 'EEXIST');
        }
        if (tries >= 5) throw err;
      }
    }
  }

  /** The session with this exact id, or undefined. */
  getSession(id: string): SessionRecord | undefined {
    return this.read('getSession', () => this.stmt('SELECT * FROM sessions WHERE id = ?').get(id)) as
      SessionRecord | undefined;
  }

  /** The most recently started session with this title (case-insensitive, exact), or undefined. */
  findSessionByTitle(title: string): SessionRecord | undefined {
    if (typeof title !== 'string' || title.length > 4 * MAX_TITLE_CHARS) return undefined;
    const t = title.replace(/\s+/g, ' ').trim();
    if (!t || t.length > MAX_TITLE_CHARS) return undefined;
    return this.read('findSessionByTitle', () =>
      this.stmt(
        'SELECT * FROM sessions WHERE title = ? COLLATE NOCASE ORDER BY started_at DESC, rowid DESC LIMIT 1',
      ).get(t),
    ) as SessionRecord | undefined;
  }

  /**
   * Resolves what a user typed for a session: an exact id, else an exact title, else a unique
   * id prefix (at least 4 characters).
   * @returns the session, or undefined when nothing matches.
   * @throws SessionDBError `EAMBIGUOUS` listing the candidates when a prefix matches several.
   */
  resolveSession(ref: string): SessionRecord | undefined {
    const exact = this.getSession(ref) ?? this.findSessionByTitle(ref);
    if (exact || ref.length < 4) return exact;
    const rows = this.read('resolveSession', () =>
      this.stmt(
        `SELECT * FROM sessions WHERE id LIKE ? ESCAPE '\\' ORDER BY started_at DESC, rowid DESC LIMIT 6`,
      ).all(`${ref.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
    ) as SessionRecord[];
    if (rows.length <= 1) return rows[0];
    const ids = rows.slice(0, 5).map((r) => r.id);
    throw new SessionDBError(
      `"${ref}" matches several sessions: ${ids.join(', ')}${rows.length > 5 ? ', …' : ''}`,
      this.file,
      'EAMBIGUOUS',
    );
  }

  /**
   * Sessions, most recently started first.
   * @param opts.limit default 50, at most 10,000; `query` matches titles (substring) and ids (prefix).
   */
  listSessions(opts: ListSessionsOptions = {}): SessionRecord[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (opts.source) {
      where.push('source = ?');
      params.push(opts.source);
    }
    const q = opts.query?.trim();
    if (q) {
      const esc = q.replace(/[\\%_]/g, (c) => `\\${c}`);
      where.push(`(title LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\')`);
      params.push(`%${esc}%`, `${esc}%`);
    }
    const limit = Math.min(Math.max(Math.floor(opts.limit ?? 50), 1), 10_000);
    const offset = Math.max(Math.floor(opts.offset ?? 0), 0);
    const sql = `SELECT * FROM sessions ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                 ORDER BY started_at DESC, rowid DESC LIMIT ? OFFSET ?`;
    return this.read('listSessions', () => this.stmt(sql).all(...params, limit, offset)) as SessionRecord[];
  }

  /** The most recently started session (of `source`, if given), or undefined. */
  latestSession(opts: { source?: string } = {}): SessionRecord | undefined {
    return this.listSessions({ ...opts, limit: 1 })[0];
  }

  /**
   * The session `--continue` resumes: the cli/tui session with the latest activity, preferring
   * one whose folder is `cwd` (api_server, platform, cron and subagent sessions are never picked).
   */
  continueSession(opts: { cwd?: string } = {}): SessionRecord | undefined {
    return this.read('continueSession', () => continueCandidate((sql) => this.stmt(sql), opts.cwd));
  }

  /** The first user prompt of each of these sessions (for previews); sessions without one are absent. */
  firstPrompts(ids: readonly string[]): Map<string, string> {
    return this.read('firstPrompts', () => firstPrompts((sql) => this.stmt(sql), ids));
  }

  /**
   * Sets or clears (null/empty) a session's title.
   * @throws SessionNotFoundError; SessionDBError `EINVAL` for a title over 200 characters,
   *   `EEXIST` for a title another session has (titles name one session).
   */
  renameSession(id: string, title: string | null): void {
    const t = normalizeTitle(title, this.file);
    const holder = t
      ? this.read('renameSession', () => titleHolder((sql) => this.stmt(sql), t, id))
      : undefined;
    if (holder)
      throw new SessionDBError(`title "${t}" is already used by session ${holder}`, this.file, 'EEXIST');
    this.updateSession('renameSession', id, 'title = ?', [t]);
  }

  /**
   * Sets the model a session uses (the daemon follows `model.default` of config.yaml per turn).
   * @throws SessionNotFoundError; SessionDBError `EINVAL` for a malformed model id.
   */
  setSessionModel(id: string, model: string): void {
    this.updateSession('setSessionModel', id, 'model = ?', [optionalText(model, 'model', this.file)]);
  }

  /**
   * Deletes a session and all its messages (and their index entries). Its model calls' tokens and
   * cost (`model_calls`: no content) stay, so `hermes usage` still counts the money spent (the
   * API server deletes its one-off sessions). Sessions that named it as
   * parent keep existing with `parent_session_id` null.
   * @returns the number of messages deleted.
   * @throws SessionNotFoundError
   */
  deleteSession(id: string): number {
    return this.write('deleteSession', this.bookkeepingBudgetMs, () => {
      const n = this.stmt('DELETE FROM messages WHERE session_id = ?').run(id).changes;
      this.stmt('DELETE FROM queued_prompts WHERE session_id = ?').run(id);
      this.stmt('UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id = ?').run(id);
      if (this.stmt('DELETE FROM sessions WHERE id = ?').run(id).changes === 0) {
        throw new SessionNotFoundError(id, this.file);
      }
      return n;
    });
  }

  /** Marks a session ended now: state `ended`, `ended_at`, `end_reason`. @throws SessionNotFoundError */
  endSession(id: string, reason: string): void {
    const now = Date.now();
    this.updateSession('endSession', id, `state = 'ended', ended_at = ?, end_reason = ?`, [
      now,
      optionalText(reason, 'reason', this.file),
    ]);
  }

  /**
   * Sets the lifecycle state (`active`, `ended`, `interrupted`, `resume_pending` …). Setting
   * `active` reopens the session (clears `ended_at` and `end_reason`).
   * @throws SessionNotFoundError; SessionDBError `EINVAL` for a malformed state.
   */
  setSessionState(id: string, state: string): void {
    const s = sessionState(state, this.file);
    const extra = s === 'active' ? ', ended_at = NULL, end_reason = NULL' : '';
    this.updateSession('setSessionState', id, `state = ?${extra}`, [s]);
  }

  /**
   * Crash recovery: after an unclean stop, sessions left
   * `running` or `resume_pending` become `interrupted`, and assistant messages left `streaming`
   * (a partial reply being written when the process died) become `interrupted` with their text
   * kept. Nothing is deleted.
   * @param canRecover filter: false for a session another live process still writes (its lock is held).
   * @returns the ids of the sessions marked interrupted.
   */
  recoverInterrupted(canRecover: (sessionId: string) => boolean = () => true): string[] {
    return this.write('recoverInterrupted', this.transcriptBudgetMs, () => {
      const rows = this.stmt(
        `SELECT id FROM sessions WHERE state IN ('running', 'resume_pending')
         UNION SELECT DISTINCT session_id FROM messages WHERE status = 'streaming'`,
      ).all() as Array<{ id: string }>;
      const ids = rows.map((r) => r.id).filter((id) => canRecover(id));
      for (const id of ids) {
        this.stmt(
          `UPDATE messages SET status = 'interrupted', finish_reason = 'interrupted' WHERE session_id = ? AND status = 'streaming'`,
        ).run(id);
        this.stmt(
          `UPDATE sessions SET state = 'interrupted' WHERE id = ? AND state IN ('running', 'resume_pending')`,
        ).run(id);
      }
      return ids;
    });
  }

  /**
   * Adds token usage to a session's counters.
   * @param promptTokens,completionTokens non-negative token counts (rounded).
   * @throws SessionNotFoundError; SessionDBError `EINVAL` for negative or non-numeric counts.
   */
  addUsage(sessionId: string, promptTokens: number, completionTokens: number): void {
    const p = count(promptTokens, 'promptTokens', this.file);
    const c = count(completionTokens, 'completionTokens', this.file);
    this.updateSession(
      'addUsage',
      sessionId,
      'prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ?',
      [p, c],
    );
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

  // ── internals ───────────────────────────────────────────────────────────────────────────

  /** UPDATE of one session row that also sets `updated_at`. @throws SessionNotFoundError */
  private updateSession(op: string, id: string, set: string, values: unknown[]): void {
    this.write(op, this.bookkeepingBudgetMs, () => {
      const r = this.stmt(`UPDATE sessions SET ${set}, updated_at = ? WHERE id = ?`).run(
        ...values,
        Date.now(),
        id,
      );
      if (r.changes === 0) throw new SessionNotFoundError(id, this.file);
    });
  }
}
