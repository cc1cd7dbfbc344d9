/**
 * The chat platforms' tables in `state.db` (schema v4), reached as `SessionDB.platforms`:
 *
 * - `platform_deliveries` — the delivery ledger: one row per accepted inbound message, from its
 *   acceptance to its outcome (core/src/messaging/delivery-ledger.ts drives it). A row holds where
 *   the reply goes, the prompt the message became, the reply text once the turn ended, how many
 *   of its chunks the platform confirmed, and the retry schedule.
 * - `platform_replay_keys` — keys a platform accepted once and must refuse until they expire
 *   (the webhook's signatures), so the window survives a restart.
 *
 * Rows are plain data: the rules (what a state means, when to retry) live in the gateway.
 * Times are epoch ms.
 */
import type Database from 'better-sqlite3';

/**
 * Where a delivery is:
 * - `accepted`: the message became a prompt that has not started (queued, or not yet submitted);
 * - `running`: its turn started (`after_message_id` bounds the turn's messages);
 * - `pending`: the reply is ready and not yet confirmed by the platform (retried);
 * - `sent`: the platform confirmed every chunk of the reply;
 * - `failed`: the reply could not be delivered (retries exhausted or a permanent refusal);
 * - `closed`: nothing is sent (silence, a drop, a command handled elsewhere).
 */
export type DeliveryState = 'accepted' | 'running' | 'pending' | 'sent' | 'failed' | 'closed';

/** States whose outcome is still open (looked at after a restart). */
export const OPEN_DELIVERY_STATES: readonly DeliveryState[] = ['accepted', 'running', 'pending'];

/** One row of `platform_deliveries`. */
export interface DeliveryRecord {
  /** The inbound message id, assigned when the message was accepted (`in-…`). */
  id: string;
  platform: string;
  chat_id: string;
  /** JSON of the send options (thread, reply-to), or null. */
  send_opts: string | null;
  /** The platform's own id of the message, when it has a unique one (duplicates are refused). */
  external_id: string | null;
  /** The gateway session key of the chat (approvals asked in the chat are matched by it). */
  session_key: string | null;
  /** JSON of the inbound message (text, source), to admit it again when a crash came first. */
  inbound: string | null;
  session_id: string | null;
  prompt_id: string | null;
  /** The prompt as submitted (to run it again after a crash cut its turn). */
  prompt_text: string | null;
  /** The session's newest message id when the turn started: the turn's messages come after it. */
  after_message_id: number | null;
  state: DeliveryState;
  /** The reply to send (filtered, with its footer). */
  reply: string | null;
  /** Chunks of the reply the platform confirmed. */
  chunks_sent: number;
  /** Send attempts that failed. */
  attempts: number;
  /** When the next attempt is due, epoch ms. */
  next_attempt_at: number | null;
  last_error: string | null;
  /** The message's outcome once decided: `reply`, `silence`, `error`, `dropped:<reason>` … */
  outcome: string | null;
  created_at: number;
  updated_at: number;
}

/** A new delivery row. */
export type NewDelivery = Pick<DeliveryRecord, 'id' | 'platform' | 'chat_id'> &
  Partial<Omit<DeliveryRecord, 'id' | 'platform' | 'chat_id' | 'created_at' | 'updated_at'>> & {
    created_at?: number;
  };

/** Fields a delivery update may change. */
export type DeliveryPatch = Partial<
  Omit<DeliveryRecord, 'id' | 'platform' | 'chat_id' | 'external_id' | 'created_at' | 'updated_at'>
>;

const PATCHABLE = new Set<string>([
  'send_opts',
  'session_key',
  'inbound',
  'session_id',
  'prompt_id',
  'prompt_text',
  'after_message_id',
  'state',
  'reply',
  'chunks_sent',
  'attempts',
  'next_attempt_at',
  'last_error',
  'outcome',
]);

/** What `PlatformTables` needs from the store: its transactions and statement cache. */
export interface TableAccess {
  read<T>(op: string, fn: () => T): T;
  write<T>(op: string, fn: () => T): T;
  stmt(sql: string): Database.Statement;
}

/** The platform tables of one state.db. */
export class PlatformTables {
  constructor(
    private readonly file: string,
    private readonly db: TableAccess,
  ) {}

  /**
   * Records a new delivery.
   * @returns `duplicate` when the platform's `external_id` (or the id) was recorded before;
   *   nothing is written then.
   */
  insertDelivery(row: NewDelivery, now = Date.now()): 'ok' | 'duplicate' {
    const changes = this.db.write(
      'insertDelivery',
      () =>
        this.db
          .stmt(
            `INSERT OR IGNORE INTO platform_deliveries (id, platform, chat_id, send_opts, external_id,
               session_key, inbound, session_id, prompt_id, prompt_text, after_message_id, state,
               reply, chunks_sent, attempts, next_attempt_at, last_error, outcome, created_at,
               updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            row.id,
            row.platform,
            row.chat_id,
            row.send_opts ?? null,
            row.external_id ?? null,
            row.session_key ?? null,
            row.inbound ?? null,
            row.session_id ?? null,
            row.prompt_id ?? null,
            row.prompt_text ?? null,
            row.after_message_id ?? null,
            row.state ?? 'accepted',
            row.reply ?? null,
            row.chunks_sent ?? 0,
            row.attempts ?? 0,
            row.next_attempt_at ?? null,
            row.last_error ?? null,
            row.outcome ?? null,
            row.created_at ?? now,
            now,
          ).changes,
    );
    return changes === 1 ? 'ok' : 'duplicate';
  }

  /** Changes fields of a delivery. @returns false when there is no such row. */
  updateDelivery(id: string, patch: DeliveryPatch, now = Date.now()): boolean {
    const keys = Object.keys(patch).filter((k) => PATCHABLE.has(k));
    const sets = [...keys.map((k) => `${k} = ?`), 'updated_at = ?'];
    const values = keys.map((k) => (patch as Record<string, unknown>)[k] ?? null);
    return this.db.write(
      'updateDelivery',
      () =>
        this.db.stmt(`UPDATE platform_deliveries SET ${sets.join(', ')} WHERE id = ?`).run(...values, now, id)
          .changes > 0,
    );
  }

  /** One delivery, or undefined. */
  getDelivery(id: string): DeliveryRecord | undefined {
    return this.db.read('getDelivery', () =>
      this.db.stmt('SELECT * FROM platform_deliveries WHERE id = ?').get(id),
    ) as DeliveryRecord | undefined;
  }

  /** A platform's deliveries in the given states, oldest first. */
  listDeliveries(platform: string, states: readonly DeliveryState[]): DeliveryRecord[] {
    if (states.length === 0) return [];
    const marks = states.map(() => '?').join(', ');
    return this.db.read('listDeliveries', () =>
      this.db
        .stmt(
          `SELECT * FROM platform_deliveries WHERE platform = ? AND state IN (${marks})
           ORDER BY created_at, rowid`,
        )
        .all(platform, ...states),
    ) as DeliveryRecord[];
  }

  /** True when a delivery of the session is still open (its platform recovers it). */
  hasOpenDeliveries(sessionId: string): boolean {
    return Boolean(
      this.db.read('hasOpenDeliveries', () =>
        this.db
          .stmt(
            `SELECT 1 FROM platform_deliveries WHERE session_id = ? AND state IN ('accepted', 'running', 'pending') LIMIT 1`,
          )
          .get(sessionId),
      ),
    );
  }

  /** Deletes finished deliveries last changed before `before`. @returns how many. */
  pruneDeliveries(before: number): number {
    return this.db.write(
      'pruneDeliveries',
      () =>
        this.db
          .stmt(
            `DELETE FROM platform_deliveries WHERE state IN ('sent', 'failed', 'closed') AND updated_at < ?`,
          )
          .run(before).changes,
    );
  }

  /** The id of the session's newest message (0 when it has none). */
  lastMessageId(sessionId: string): number {
    const row = this.db.read('lastMessageId', () =>
      this.db.stmt('SELECT max(id) AS id FROM messages WHERE session_id = ?').get(sessionId),
    ) as { id: number | null } | undefined;
    return row?.id ?? 0;
  }

  /**
   * Remembers `key` for `platform` until `expiresAt` unless it is already remembered; expired
   * keys of the platform are forgotten first. One transaction: two processes cannot both claim.
   * @returns true when this call claimed the key (first sight), false for a replay.
   */
  claimReplayKey(platform: string, key: string, expiresAt: number, now = Date.now()): boolean {
    return this.db.write('claimReplayKey', () => {
      this.db
        .stmt('DELETE FROM platform_replay_keys WHERE platform = ? AND expires_at <= ?')
        .run(platform, now);
      return (
        this.db
          .stmt('INSERT OR IGNORE INTO platform_replay_keys (platform, key, expires_at) VALUES (?, ?, ?)')
          .run(platform, key, expiresAt).changes === 1
      );
    });
  }

  /** Where this lives (for messages). */
  get location(): string {
    return this.file;
  }
}
