/**
 * `model_calls` (schema v6): one row per model call with its tokens and cost, so money spent
 * survives restarts and sums per session, per model, per day.
 *
 * - A row belongs to a session (`session_id`) and, for a reply, to the assistant message it
 *   produced (`message_id`; null for calls without a stored message). Undoing or rewinding a turn
 *   keeps its calls (the money was spent); a fork copies none (it was spent once); deleting the
 *   session keeps them too (they hold no content; the API server deletes its one-off sessions).
 * - Tokens follow `Usage` (protocol/events.ts): `prompt_tokens` includes `cached_tokens` and
 *   `cache_write_tokens`; `completion_tokens` includes `reasoning_tokens`.
 * - `cost_micros` is the cost in whole micro-dollars (core/src/model/pricing.ts), null when the
 *   model's price was unknown; `cost_status` is `priced`, `local` or `unknown`.
 * - Sessions from before v6 (and anything counted only in the session's token counters) have
 *   tokens but no rows: reports count those tokens as `untracked` (their cost unknown).
 */
import type { TableAccess } from './platform-tables.js';
import { SessionDBError, SessionNotFoundError } from './errors.js';

/** A cost as stored: `priced` (at a price), `local` (a local server: 0), `unknown` (no price). */
export type StoredCostStatus = 'priced' | 'local' | 'unknown';

/** One model call to record. */
export interface ModelCallInput {
  /** The assistant message the call produced, if stored. */
  messageId?: number | null;
  /** Epoch ms; default now. */
  timestamp?: number;
  provider?: string | null;
  model?: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens?: number;
  cache_write_tokens?: number;
  reasoning_tokens?: number;
  /** Whole micro-dollars; null when unknown. */
  cost_micros: number | null;
  cost_status: StoredCostStatus;
  /** Where the price came from (`config`, `endpoint`, `table`). */
  price_source?: string | null;
}

/** Tokens and cost summed over some calls. */
export interface UsageTotals {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  /** Micro-dollars of the calls with a known cost. */
  cost_micros: number;
  /** Calls priced at a price, to a local server, without a price. */
  priced_calls: number;
  local_calls: number;
  unknown_calls: number;
  /** Prompt + completion tokens of calls without a price. */
  unknown_tokens: number;
}

/** The stored usage of one message (`messageUsage`). */
export interface MessageUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  cost_micros: number | null;
  cost_status: StoredCostStatus;
  model: string | null;
}

/** The calls' table of one state.db. */
export class ModelCallTable {
  constructor(
    private readonly db: TableAccess,
    private readonly file: string,
    /** True when the table exists (a read-only reader of a pre-v6 file has none). */
    private readonly present: () => boolean,
  ) {}

  /**
   * Records one call and adds its tokens to the session's counters, in one transaction.
   * @throws SessionNotFoundError (`ENOSESSION`); SessionDBError `EINVAL` for a negative count.
   */
  record(sessionId: string, call: ModelCallInput): void {
    const n = (v: number | undefined, field: string): number => {
      const x = v ?? 0;
      if (!Number.isFinite(x) || x < 0)
        throw new SessionDBError(`${this.file}: ${field} must be a non-negative number`, this.file, 'EINVAL');
      return Math.round(x);
    };
    const values = [
      n(call.prompt_tokens, 'prompt_tokens'),
      n(call.completion_tokens, 'completion_tokens'),
      n(call.cached_tokens, 'cached_tokens'),
      n(call.cache_write_tokens, 'cache_write_tokens'),
      n(call.reasoning_tokens, 'reasoning_tokens'),
    ];
    const micros = call.cost_micros === null ? null : n(call.cost_micros, 'cost_micros');
    const now = call.timestamp ?? Date.now();
    this.db.write('recordModelCall', () => {
      const bumped = this.db
        .stmt(
          'UPDATE sessions SET prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ?, updated_at = ? WHERE id = ?',
        )
        .run(values[0], values[1], now, sessionId);
      if (bumped.changes === 0) throw new SessionNotFoundError(sessionId, this.file);
      this.db
        .stmt(
          `INSERT INTO model_calls (session_id, message_id, timestamp, provider, model, prompt_tokens,
             completion_tokens, cached_tokens, cache_write_tokens, reasoning_tokens, cost_micros,
             cost_status, price_source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          sessionId,
          call.messageId ?? null,
          now,
          call.provider ?? null,
          call.model ?? null,
          ...values,
          micros,
          call.cost_status,
          call.price_source ?? null,
        );
    });
  }

  /** Tokens and cost of a session's recorded calls (zeros when none or no table). */
  sessionTotals(sessionId: string): UsageTotals {
    if (!this.present()) return emptyTotals();
    return this.db.read(
      'sessionUsage',
      () =>
        this.db.stmt(`SELECT ${TOTALS} FROM model_calls WHERE session_id = ?`).get(sessionId) as UsageTotals,
    );
  }

  /** The recorded usage of each message of a session that has one, by message id. */
  messageUsage(sessionId: string): Map<number, MessageUsage> {
    const out = new Map<number, MessageUsage>();
    if (!this.present()) return out;
    const rows = this.db.read(
      'messageUsage',
      () =>
        this.db
          .stmt(
            `SELECT message_id, prompt_tokens, completion_tokens, cached_tokens, cache_write_tokens,
               reasoning_tokens, cost_micros, cost_status, model
             FROM model_calls WHERE session_id = ? AND message_id IS NOT NULL ORDER BY id`,
          )
          .all(sessionId) as Array<MessageUsage & { message_id: number }>,
    );
    for (const { message_id, ...u } of rows) out.set(message_id, u);
    return out;
  }
}

/** The SQL of `UsageTotals` over `model_calls` rows. */
export const TOTALS = `
  COALESCE(SUM(prompt_tokens), 0) AS prompt_tokens,
  COALESCE(SUM(completion_tokens), 0) AS completion_tokens,
  COALESCE(SUM(cached_tokens), 0) AS cached_tokens,
  COALESCE(SUM(cache_write_tokens), 0) AS cache_write_tokens,
  COALESCE(SUM(reasoning_tokens), 0) AS reasoning_tokens,
  COALESCE(SUM(cost_micros), 0) AS cost_micros,
  COUNT(CASE WHEN cost_status = 'priced' THEN 1 END) AS priced_calls,
  COUNT(CASE WHEN cost_status = 'local' THEN 1 END) AS local_calls,
  COUNT(CASE WHEN cost_status = 'unknown' THEN 1 END) AS unknown_calls,
  COALESCE(SUM(CASE WHEN cost_status = 'unknown' THEN prompt_tokens + completion_tokens END), 0) AS unknown_tokens`;

/** Totals of nothing. */
export function emptyTotals(): UsageTotals {
  return {
    prompt_tokens: 0,
    completion_tokens: 0,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    cost_micros: 0,
    priced_calls: 0,
    local_calls: 0,
    unknown_calls: 0,
    unknown_tokens: 0,
  };
}

/**
 * How a total's cost is known: `unknown` when no call had a price (or there were none) and
 * nothing else is known, `partial` when some tokens had no price (`untrackedTokens`: tokens of
 * the session counted before costs were stored), `local` when every call was local, else `priced`.
 */
export function totalsStatus(
  t: Pick<UsageTotals, 'priced_calls' | 'local_calls' | 'unknown_calls'>,
  untrackedTokens = 0,
): 'priced' | 'local' | 'unknown' | 'partial' {
  const known = t.priced_calls + t.local_calls;
  if (known === 0) return 'unknown';
  if (t.unknown_calls > 0 || untrackedTokens > 0) return 'partial';
  return t.priced_calls === 0 ? 'local' : 'priced';
}

/**
 * A session's stored cost: USD of its priced calls (absent when nothing had a price) and how it
 * is known — `partial` also when the session counted tokens without a stored call (before costs
 * were stored). Undefined when the session has no stored call at all.
 */
export function storedCostOf(
  t: UsageTotals,
  session: { prompt_tokens: number; completion_tokens: number },
): { cost_usd?: number; cost_status: 'priced' | 'local' | 'unknown' | 'partial' } | undefined {
  if (t.priced_calls + t.local_calls + t.unknown_calls === 0) return undefined;
  const untracked = session.prompt_tokens + session.completion_tokens - t.prompt_tokens - t.completion_tokens;
  const status = totalsStatus(t, Math.max(0, untracked));
  return status === 'unknown'
    ? { cost_status: status }
    : { cost_usd: t.cost_micros / 1_000_000, cost_status: status };
}
