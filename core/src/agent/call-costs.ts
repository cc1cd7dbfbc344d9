/**
 * The money side of an agent's model calls: each call's usage is priced (model/pricing.ts: the
 * profile's `model.pricing`, a local server, the provider's models endpoint prices cached in
 * `<home>/model-prices.json`, the bundled table), stored with its tokens (`model_calls` through
 * `TranscriptStore.recordModelCall`, or only the session's token counters through `addUsage`
 * when the store has no such method), and summed for the session.
 */
import type { HermesConfig } from '../config/schema.js';
import type { HermesHome } from '../home/home.js';
import { endpointPricesAt } from '../model/endpoint-prices.js';
import {
  addCost,
  costOf,
  emptyCostSum,
  resolvePrice,
  sumFields,
  withCost,
  type CallCost,
  type CostSum,
  type PricedCall,
} from '../model/pricing.js';
import type { Usage } from '../protocol/events.js';
import type { SessionDB } from '../state/session-db.js';
import type { SessionRecord } from '../state/types.js';
import type { TranscriptStore } from './agent-types.js';

/** Name of the endpoint price cache in a profile's home. */
export const MODEL_PRICES_FILE = 'model-prices.json';

/** Starts fetching the endpoint prices of a provider (when it reports any) in the background. */
export function warmEndpointPrices(home: HermesHome, provider: string, baseURL: string | undefined): void {
  void endpointPricesAt(home.path(MODEL_PRICES_FILE)).warm(provider, baseURL);
}

/**
 * A session's cost from its stored calls, as a sum to continue from. Tokens the session counted
 * without a stored call (before costs were stored) count as one call without a price, so the
 * session's cost reads `partial`.
 */
export function storedSessionCost(db: SessionDB, session: SessionRecord): CostSum {
  const t = db.modelCalls.sessionTotals(session.id);
  const untracked = session.prompt_tokens + session.completion_tokens > t.prompt_tokens + t.completion_tokens;
  return {
    micros: t.cost_micros,
    priced: t.priced_calls,
    local: t.local_calls,
    unknown: t.unknown_calls + (untracked ? 1 : 0),
  };
}

/** What `CallCosts` reads at each call (the agent's current settings). */
export interface CallCostContext {
  home: HermesHome;
  config: HermesConfig;
  store: TranscriptStore;
  /** The model id the session is configured with (`model.pricing` applies to it). */
  primaryModel: string;
}

/** One agent's call pricing and its session sum. */
export class CallCosts {
  /** The session's calls so far (stored ones included when given at construction). */
  session: CostSum;

  constructor(
    private readonly ctx: () => CallCostContext,
    initial: CostSum = emptyCostSum(),
  ) {
    this.session = initial;
  }

  /** Prices a call's usage without storing it. */
  price(usage: Usage, call: PricedCall): { usage: Usage; cost: CallCost } {
    const { home, config, primaryModel } = this.ctx();
    const prices = endpointPricesAt(home.path(MODEL_PRICES_FILE));
    const resolution = resolvePrice(call, {
      config,
      primaryModel,
      endpointPrice: (c) => prices.lookup(c),
    });
    const cost = costOf(usage, resolution);
    return { usage: withCost(usage, cost), cost };
  }

  /**
   * Prices a call, stores it (with the assistant message it produced, when given) and adds it to
   * the session's sum. Storing never throws into the turn: a failed write is the store's to report.
   * @returns the usage with `cost_usd`/`cost_status`, and the call's cost.
   */
  record(
    sessionId: string,
    usage: Usage,
    call: PricedCall,
    messageId?: number,
  ): { usage: Usage; cost: CallCost } {
    const priced = this.price(usage, call);
    const { store } = this.ctx();
    if (store.recordModelCall) {
      store.recordModelCall(sessionId, {
        ...(messageId !== undefined ? { messageId } : {}),
        provider: call.provider || null,
        model: call.model || null,
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        cached_tokens: usage.cached_tokens ?? 0,
        cache_write_tokens: usage.cache_write_tokens ?? 0,
        reasoning_tokens: usage.reasoning_tokens ?? 0,
        cost_micros: priced.cost.micros,
        cost_status: priced.cost.status,
        price_source: priced.cost.source ?? null,
      });
    } else {
      store.addUsage(sessionId, usage.prompt_tokens, usage.completion_tokens);
    }
    this.session = addCost(this.session, priced.cost);
    return priced;
  }

  /** `session_cost_usd` / `session_cost_status` of the session so far. */
  sessionFields(): {
    session_cost_usd?: number;
    session_cost_status: ReturnType<typeof sumFields>['cost_status'];
  } {
    const f = sumFields(this.session);
    return {
      ...(f.cost_usd !== undefined ? { session_cost_usd: f.cost_usd } : {}),
      session_cost_status: f.cost_status,
    };
  }
}

/** Usage of several calls summed (tokens, and cost through `costs`). */
export function sumUsage(a: Usage, b: Usage): Usage {
  const opt = (k: 'cached_tokens' | 'cache_write_tokens' | 'reasoning_tokens') =>
    a[k] !== undefined || b[k] !== undefined ? { [k]: (a[k] ?? 0) + (b[k] ?? 0) } : {};
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
    ...opt('cached_tokens'),
    ...opt('cache_write_tokens'),
    ...opt('reasoning_tokens'),
  };
}
