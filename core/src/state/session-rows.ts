/**
 * The `sessions` table of a session database: creating, finding, listing, renaming, ending and
 * deleting sessions, their lifecycle state, token counters and crash recovery. `SessionDB`
 * (session-db.ts) extends it with the transcripts, search, queued prompts and the other tables;
 * the connection, transactions and retries are `StateStore`'s (store.ts).
 */
import { SessionDBError, SessionNotFoundError, sqliteCode } from './errors.js';
import { newSessionId, sessionIdProblem } from './session-id.js';
import { continueCandidate, firstPrompts, titleHolder, uniqueTitle } from './session-picks.js';
import { StateStore } from './store.js';
import type { CreateSessionOptions, ListSessionsOptions, SessionRecord } from './types.js';
import { count, MAX_TITLE_CHARS, normalizeTitle, optionalText, sessionState } from './validate.js';

/** The sessions of a session database (see the file comment); opened as a `SessionDB`. */
export abstract class SessionRows extends StateStore {
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

  /** UPDATE of one session row that also sets `updated_at`. @throws SessionNotFoundError */
  protected updateSession(op: string, id: string, set: string, values: unknown[]): void {
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
