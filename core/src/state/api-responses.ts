/**
 * `api_responses` (schema v4, added without a version change: the table is created when
 * missing): the responses the API server's `POST /v1/responses` stored (`store: true`), so a
 * later request can continue one (`previous_response_id`), a named `conversation` finds its
 * latest, and `GET` / `DELETE /v1/responses/{id}` work across restarts.
 *
 * A row is plain data: `chat_id` is the API server's conversation (the session key's chat) the
 * response ran in, `body` the response object as JSON. Times are epoch ms.
 */
import type { TableAccess } from './platform-tables.js';

/** One stored response. */
export interface ApiResponseRecord {
  /** `resp_…`. */
  id: string;
  /** The conversation (chat id) the response's turn ran in. */
  chat_id: string;
  /** The named conversation (`conversation` of the request), or null. */
  conversation: string | null;
  previous_id: string | null;
  /** The response object, JSON. */
  body: string;
  created_at: number;
}

/** The stored responses of one state.db. */
export class ApiResponseTable {
  constructor(private readonly db: TableAccess) {}

  /** Stores (or replaces) a response. */
  put(row: ApiResponseRecord): void {
    this.db.write('putApiResponse', () =>
      this.db
        .stmt(
          `INSERT OR REPLACE INTO api_responses (id, chat_id, conversation, previous_id, body, created_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(row.id, row.chat_id, row.conversation, row.previous_id, row.body, row.created_at),
    );
  }

  /** The response `id`, or undefined. */
  get(id: string): ApiResponseRecord | undefined {
    return this.db.read(
      'getApiResponse',
      () => this.db.stmt('SELECT * FROM api_responses WHERE id = ?').get(id) as ApiResponseRecord | undefined,
    );
  }

  /** The newest response of a named conversation, or undefined. */
  latest(conversation: string): ApiResponseRecord | undefined {
    return this.db.read(
      'latestApiResponse',
      () =>
        this.db
          .stmt(
            'SELECT * FROM api_responses WHERE conversation = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
          )
          .get(conversation) as ApiResponseRecord | undefined,
    );
  }

  /** Deletes the response `id`. @returns false when there was none. */
  delete(id: string): boolean {
    return this.db.write(
      'deleteApiResponse',
      () => this.db.stmt('DELETE FROM api_responses WHERE id = ?').run(id).changes > 0,
    );
  }

  /** Deletes responses created before `before` (epoch ms). @returns how many. */
  prune(before: number): number {
    return this.db.write(
      'pruneApiResponses',
      () => this.db.stmt('DELETE FROM api_responses WHERE created_at < ?').run(before).changes,
    );
  }
}
