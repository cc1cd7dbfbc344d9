/**
 * Edits of a stored transcript that go beyond appending: cutting a session's messages from one
 * message on (`/undo`, `/retry`, `/rewind`) and copying a session's opening into a new session
 * (`/fork`). Each is one write transaction; the FTS index follows through its triggers and the
 * session's `message_count` is kept exact. No schema change: rows are deleted or copied as they are.
 */
import { SessionDBError, SessionNotFoundError } from './errors.js';
import type { TableAccess } from './platform-tables.js';
import { MESSAGE_COLUMNS } from './schema.js';
import { uniqueTitle } from './session-picks.js';
import { newSessionId } from './session-id.js';
import type { SessionRecord } from './types.js';
import { normalizeTitle } from './validate.js';

/** Options of `TranscriptEdits.fork`. */
export interface ForkOptions {
  /** Copy only messages with a smaller id (the fork starts just before this message); absent: all. */
  beforeId?: number;
  /** Title of the new session (made unique like any title); absent: untitled. */
  title?: string;
  /** Source recorded for the new session; default the original's. */
  source?: string;
}

/** Transcript edits of one state.db (see the module comment). */
export class TranscriptEdits {
  constructor(
    private readonly file: string,
    private readonly db: TableAccess,
  ) {}

  /**
   * Deletes the messages of `sessionId` whose id is `fromId` or larger, and lowers its
   * `message_count` by as many.
   * @returns the number of messages deleted (0 when none had such an id).
   * @throws SessionNotFoundError for an unknown session.
   */
  truncateFrom(sessionId: string, fromId: number): number {
    return this.db.write('truncateMessages', () => {
      const n = this.db
        .stmt('DELETE FROM messages WHERE session_id = ? AND id >= ?')
        .run(sessionId, fromId).changes;
      const r = this.db
        .stmt('UPDATE sessions SET message_count = MAX(message_count - ?, 0), updated_at = ? WHERE id = ?')
        .run(n, Date.now(), sessionId);
      if (r.changes === 0) throw new SessionNotFoundError(sessionId, this.file);
      return n;
    });
  }

  /**
   * Creates a new session that continues `sourceId` up to a point: the same source, model and
   * folder, `parent_session_id` = `sourceId`, and a copy of its messages (all, or those before
   * `opts.beforeId`) with their timestamps. The original is not changed.
   * @returns the new session's record.
   * @throws SessionNotFoundError for an unknown source session; SessionDBError `EINVAL` for a bad title.
   */
  fork(sourceId: string, opts: ForkOptions = {}): SessionRecord {
    const title = normalizeTitle(opts.title, this.file);
    return this.db.write('forkSession', () => {
      const src = this.db.stmt('SELECT * FROM sessions WHERE id = ?').get(sourceId) as
        SessionRecord | undefined;
      if (!src) throw new SessionNotFoundError(sourceId, this.file);
      const now = Date.now();
      let id = newSessionId(new Date(now));
      for (let tries = 0; this.db.stmt('SELECT 1 FROM sessions WHERE id = ?').get(id); tries++) {
        if (tries >= 5) throw new SessionDBError(`${this.file}: no free session id`, this.file, 'EEXIST');
        id = newSessionId(new Date(now));
      }
      this.db
        .stmt(
          `INSERT INTO sessions (id, title, source, model, cwd, parent_session_id, started_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          title && uniqueTitle((sql) => this.db.stmt(sql), title),
          opts.source ?? src.source,
          src.model,
          src.cwd,
          sourceId,
          now,
          now,
        );
      const copied = this.db
        .stmt(
          `INSERT INTO messages (session_id, ${MESSAGE_COLUMNS})
           SELECT ?, ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND id < ? ORDER BY id`,
        )
        .run(id, sourceId, opts.beforeId ?? Number.MAX_SAFE_INTEGER).changes;
      this.db.stmt('UPDATE sessions SET message_count = ? WHERE id = ?').run(copied, id);
      return this.db.stmt('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRecord;
    });
  }
}
