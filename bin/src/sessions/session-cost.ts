/**
 * The cost part of `hermes sessions show`: the session's summed tokens and cost, and each
 * assistant message's, from the stored model calls (`model_calls`). Tokens the session counted
 * before costs were stored make its cost `partial` (or `unknown` when nothing was priced).
 */
import { costLabel } from '@hermes/core/constants';
import { totalsStatus, type MessageUsage, type SessionDB, type SessionRecord } from '@hermes/core/state';

/** The session's cost as `sessions show --json` prints it (`cost`). */
export interface SessionCostJson {
  /** USD of the priced calls; absent when nothing had a price. */
  cost_usd?: number;
  cost_status: 'priced' | 'local' | 'unknown' | 'partial';
  /** Tokens of calls whose model had no known price. */
  unpriced_tokens: number;
  /** Tokens the session counted without a stored call (before costs were stored). */
  untracked_tokens: number;
}

/** A message's usage as `sessions show --json` prints it (`usage` on assistant messages). */
export interface MessageUsageJson {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  model: string | null;
  cost_usd?: number;
  cost_status: MessageUsage['cost_status'];
}

/** What `sessions show` adds about money. */
export interface SessionCosts {
  session: SessionCostJson;
  messages: Map<number, MessageUsageJson>;
}

/** Reads a session's costs. */
export function sessionCosts(db: SessionDB, s: SessionRecord): SessionCosts {
  const t = db.modelCalls.sessionTotals(s.id);
  const untracked = Math.max(
    0,
    s.prompt_tokens + s.completion_tokens - t.prompt_tokens - t.completion_tokens,
  );
  const status = totalsStatus(t, untracked);
  const messages = new Map<number, MessageUsageJson>();
  for (const [id, u] of db.modelCalls.messageUsage(s.id)) {
    const { cost_micros, ...rest } = u;
    messages.set(id, { ...rest, ...(cost_micros !== null ? { cost_usd: cost_micros / 1_000_000 } : {}) });
  }
  return {
    session: {
      ...(status !== 'unknown' ? { cost_usd: t.cost_micros / 1_000_000 } : {}),
      cost_status: status,
      unpriced_tokens: t.unknown_tokens,
      untracked_tokens: untracked,
    },
    messages,
  };
}

/** `cost $0.0123`, `cost unknown`, `cost local` … for the session's facts line. */
export function sessionCostFact(c: SessionCostJson): string {
  return `cost ${costLabel(c.cost_usd, c.cost_status) ?? 'unknown'}`;
}

/** `1,200 in (800 cached) / 50 out · $0.0012` for an assistant message. */
export function messageUsageLine(u: MessageUsageJson): string {
  const cached = u.cached_tokens ? ` (${u.cached_tokens.toLocaleString('en-US')} cached)` : '';
  const tokens = `${u.prompt_tokens.toLocaleString('en-US')} in${cached} / ${u.completion_tokens.toLocaleString('en-US')} out`;
  return `${tokens} · ${costLabel(u.cost_usd, u.cost_status) ?? 'unknown'}`;
}
