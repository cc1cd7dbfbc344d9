/**
 * The bundled price table: data only (the rules that read it are in pricing.ts).
 *
 * Prices are USD per million tokens: `in` (uncached input), `out` (output, reasoning included),
 * `cr` (input read from the provider's prompt cache), `cw` (input written to the cache). A
 * missing `cr`/`cw` means the provider bills those tokens as plain input. `provider` scopes a row
 * to one provider id (a model served by Groq costs what Groq charges); rows without it hold the
 * model maker's own API price and apply to any hosted provider without an endpoint price.
 *
 * Checked on 2026-12-05 against LiteLLM's `model_prices_and_context_window.json` (snapshot of
 * 2026-07-24) and the providers' price pages where they could be read. `unconfirmed: true` marks
 * a price that could not be confirmed against a second source. Long-context surcharges (inputs
 * above 200k tokens on some Gemini and Claude models) are not modelled: such calls are priced at
 * the base rate. OpenRouter calls use OpenRouter's own prices (its `/models` endpoint) first.
 */

/** One row of the bundled table (USD per million tokens). */
export interface PriceRow {
  /** Model id as its provider spells it (matched case-insensitively, see pricing.ts). */
  id: string;
  in: number;
  out: number;
  cr?: number;
  cw?: number;
  /** Only for calls through this provider id (`groq`, …). */
  provider?: string;
  /** True when the price could not be confirmed against a second source. */
  unconfirmed?: boolean;
}

/** The date the table was last checked (ISO `YYYY-MM-DD`). */
export const PRICE_TABLE_CHECKED = '2026-12-05';

/** The bundled prices. */
export const PRICE_TABLE: readonly PriceRow[] = [
  // ── OpenAI ────────────────────────────────────────────────────────────────────────────────
  { id: 'gpt-5.6', in: 5, out: 30, cr: 0.5, cw: 6.25, unconfirmed: true },
  { id: 'gpt-5.6-luna', in: 1, out: 6, cr: 0.1, cw: 1.25, unconfirmed: true },
  { id: 'gpt-5.6-terra', in: 2.5, out: 15, cr: 0.25, cw: 3.125, unconfirmed: true },
  { id: 'gpt-5.6-sol', in: 5, out: 30, cr: 0.5, cw: 6.25, unconfirmed: true },
  { id: 'gpt-5.5', in: 5, out: 30, cr: 0.5 },
  { id: 'gpt-5.4', in: 2.5, out: 15, cr: 0.25 },
  { id: 'gpt-5.4-mini', in: 0.75, out: 4.5, cr: 0.075 },
  { id: 'gpt-5.4-nano', in: 0.2, out: 1.25, cr: 0.02 },
  { id: 'gpt-5.3-chat-latest', in: 1.75, out: 14, cr: 0.175 },
  { id: 'gpt-5.2', in: 1.75, out: 14, cr: 0.175 },
  { id: 'gpt-5.1', in: 1.25, out: 10, cr: 0.125 },
  { id: 'gpt-5', in: 1.25, out: 10, cr: 0.125 },
  { id: 'gpt-5-mini', in: 0.25, out: 2, cr: 0.025 },
  { id: 'gpt-5-nano', in: 0.05, out: 0.4, cr: 0.005 },
  { id: 'gpt-4.1', in: 2, out: 8, cr: 0.5 },
  { id: 'gpt-4.1-mini', in: 0.4, out: 1.6, cr: 0.1 },
  { id: 'gpt-4.1-nano', in: 0.1, out: 0.4, cr: 0.025 },
  { id: 'gpt-4o', in: 2.5, out: 10, cr: 1.25 },
  { id: 'gpt-4o-mini', in: 0.15, out: 0.6, cr: 0.075 },
  { id: 'gpt-4-turbo', in: 10, out: 30 },
  { id: 'gpt-4', in: 30, out: 60 },
  { id: 'gpt-3.5-turbo', in: 0.5, out: 1.5 },
  { id: 'o3', in: 2, out: 8, cr: 0.5 },
  { id: 'o3-mini', in: 1.1, out: 4.4, cr: 0.55 },
  { id: 'o4-mini', in: 1.1, out: 4.4, cr: 0.275 },
  { id: 'gpt-oss-120b', in: 0.15, out: 0.6, cr: 0.075, provider: 'groq' },
  { id: 'gpt-oss-20b', in: 0.075, out: 0.3, cr: 0.0375, provider: 'groq' },

  // ── Anthropic (cache write = 5-minute cache, 1.25 × input) ───────────────────────────────
  { id: 'claude-opus-4-8', in: 5, out: 25, cr: 0.5, cw: 6.25, unconfirmed: true },
  { id: 'claude-opus-4-7', in: 5, out: 25, cr: 0.5, cw: 6.25 },
  { id: 'claude-opus-4-6', in: 5, out: 25, cr: 0.5, cw: 6.25 },
  { id: 'claude-opus-4-5', in: 5, out: 25, cr: 0.5, cw: 6.25 },
  { id: 'claude-opus-4-1', in: 15, out: 75, cr: 1.5, cw: 18.75 },
  { id: 'claude-opus-4', in: 15, out: 75, cr: 1.5, cw: 18.75 },
  { id: 'claude-opus-5', in: 5, out: 25, cr: 0.5, cw: 6.25, unconfirmed: true },
  { id: 'claude-sonnet-5', in: 2, out: 10, cr: 0.2, cw: 2.5, unconfirmed: true },
  { id: 'claude-sonnet-4-6', in: 3, out: 15, cr: 0.3, cw: 3.75 },
  { id: 'claude-sonnet-4-5', in: 3, out: 15, cr: 0.3, cw: 3.75 },
  { id: 'claude-sonnet-4', in: 3, out: 15, cr: 0.3, cw: 3.75 },
  { id: 'claude-4-sonnet', in: 3, out: 15, cr: 0.3, cw: 3.75 },
  { id: 'claude-4-opus', in: 15, out: 75, cr: 1.5, cw: 18.75 },
  { id: 'claude-3-7-sonnet', in: 3, out: 15, cr: 0.3, cw: 3.75 },
  { id: 'claude-haiku-4-5', in: 1, out: 5, cr: 0.1, cw: 1.25 },
  { id: 'claude-3-5-haiku', in: 0.8, out: 4, cr: 0.08, cw: 1 },
  { id: 'claude-3-haiku', in: 0.25, out: 1.25, cr: 0.03, cw: 0.3 },
  { id: 'claude-3-opus', in: 15, out: 75, cr: 1.5, cw: 18.75 },

  // ── Google Gemini ─────────────────────────────────────────────────────────────────────────
  { id: 'gemini-3.6-flash', in: 1.5, out: 7.5, cr: 0.15, unconfirmed: true },
  { id: 'gemini-3.5-flash', in: 1.5, out: 9, cr: 0.15, unconfirmed: true },
  { id: 'gemini-3.5-flash-lite', in: 0.3, out: 2.5, cr: 0.03, unconfirmed: true },
  { id: 'gemini-3.1-pro-preview', in: 2, out: 12, cr: 0.2 },
  { id: 'gemini-3.1-pro', in: 2, out: 12, cr: 0.2, unconfirmed: true },
  { id: 'gemini-3.1-flash-lite', in: 0.25, out: 1.5, cr: 0.025 },
  { id: 'gemini-3-pro-preview', in: 2, out: 12, cr: 0.2 },
  { id: 'gemini-3-pro', in: 2, out: 12, cr: 0.2, unconfirmed: true },
  { id: 'gemini-3-flash', in: 0.5, out: 3, cr: 0.05 },
  { id: 'gemini-2.5-pro', in: 1.25, out: 10, cr: 0.125 },
  { id: 'gemini-2.5-flash', in: 0.3, out: 2.5, cr: 0.03 },
  { id: 'gemini-2.5-flash-lite', in: 0.1, out: 0.4, cr: 0.01 },
  { id: 'gemini-2.0-flash', in: 0.1, out: 0.4, cr: 0.025 },
  { id: 'gemini-2.0-flash-lite', in: 0.075, out: 0.3, cr: 0.01875 },
  { id: 'gemini-flash-latest', in: 0.3, out: 2.5, cr: 0.03 },
  { id: 'gemini-flash-lite-latest', in: 0.1, out: 0.4, cr: 0.01 },
  { id: 'gemini-pro-latest', in: 1.25, out: 10, cr: 0.125 },

  // ── DeepSeek (cache miss = input) ─────────────────────────────────────────────────────────
  { id: 'deepseek-v4-pro', in: 0.435, out: 0.87, cr: 0.003625, unconfirmed: true },
  { id: 'deepseek-v4-flash', in: 0.14, out: 0.28, cr: 0.0028, unconfirmed: true },
  { id: 'deepseek-chat', in: 0.28, out: 0.42, cr: 0.028 },
  { id: 'deepseek-reasoner', in: 0.28, out: 0.42, cr: 0.028 },
  { id: 'deepseek-v3.2', in: 0.28, out: 0.42, cr: 0.028 },
  { id: 'deepseek-r1', in: 0.55, out: 2.19 },

  // ── xAI ───────────────────────────────────────────────────────────────────────────────────
  { id: 'grok-4.5', in: 2, out: 6, cr: 0.5 },
  { id: 'grok-4.3', in: 1.25, out: 2.5, cr: 0.2 },
  { id: 'grok-4.20-0309-reasoning', in: 2, out: 6, cr: 0.2, unconfirmed: true },
  { id: 'grok-4.20-0309-non-reasoning', in: 2, out: 6, cr: 0.2, unconfirmed: true },
  { id: 'grok-4-1-fast', in: 0.2, out: 0.5, cr: 0.05 },
  { id: 'grok-4-fast', in: 0.2, out: 0.5, cr: 0.05 },
  { id: 'grok-4', in: 3, out: 15, cr: 0.75 },
  { id: 'grok-code-fast-1', in: 0.2, out: 1.5, cr: 0.02 },
  { id: 'grok-3', in: 3, out: 15, cr: 0.75 },
  { id: 'grok-3-mini', in: 0.3, out: 0.5, cr: 0.075 },

  // ── Mistral ───────────────────────────────────────────────────────────────────────────────
  { id: 'mistral-large-latest', in: 0.5, out: 1.5 },
  { id: 'mistral-large-2512', in: 0.5, out: 1.5 },
  { id: 'mistral-large-2411', in: 2, out: 6 },
  { id: 'mistral-medium-latest', in: 1.5, out: 7.5, unconfirmed: true },
  { id: 'mistral-medium-2508', in: 0.4, out: 2 },
  { id: 'mistral-small-latest', in: 0.06, out: 0.18, unconfirmed: true },
  { id: 'mistral-small-2506', in: 0.06, out: 0.18, unconfirmed: true },
  { id: 'magistral-medium-latest', in: 2, out: 5 },
  { id: 'magistral-small-latest', in: 0.5, out: 1.5 },
  { id: 'devstral-latest', in: 0.4, out: 2 },
  { id: 'devstral-2512', in: 0.4, out: 2 },
  { id: 'devstral-medium-latest', in: 0.4, out: 2 },
  { id: 'devstral-small-latest', in: 0.1, out: 0.3 },
  { id: 'codestral-latest', in: 0.3, out: 0.9, unconfirmed: true },
  { id: 'codestral-2508', in: 0.3, out: 0.9 },
  { id: 'ministral-8b-latest', in: 0.15, out: 0.15 },
  { id: 'open-mistral-nemo', in: 0.3, out: 0.3 },
  { id: 'pixtral-large-latest', in: 2, out: 6 },

  // ── Qwen (Alibaba DashScope, international) ───────────────────────────────────────────────
  { id: 'qwen-max', in: 1.6, out: 6.4 },
  { id: 'qwen-plus', in: 0.4, out: 1.2 },
  { id: 'qwen-turbo', in: 0.05, out: 0.2 },
  { id: 'qwen-coder', in: 0.3, out: 1.5, unconfirmed: true },
  { id: 'qwen3-next-80b-a3b-instruct', in: 0.15, out: 1.2 },
  { id: 'qwen3-next-80b-a3b-thinking', in: 0.15, out: 1.2 },
  { id: 'qwen3-vl-235b-a22b-instruct', in: 0.4, out: 1.6 },
  { id: 'qwen3-32b', in: 0.29, out: 0.59, provider: 'groq' },

  // ── Kimi (Moonshot) ───────────────────────────────────────────────────────────────────────
  { id: 'kimi-k2.6', in: 0.95, out: 4, cr: 0.16, unconfirmed: true },
  { id: 'kimi-k2.5', in: 0.6, out: 3, cr: 0.1 },
  { id: 'kimi-k2-thinking', in: 0.6, out: 2.5, cr: 0.15 },
  { id: 'kimi-k2-thinking-turbo', in: 1.15, out: 8, cr: 0.15 },
  { id: 'kimi-k2-turbo-preview', in: 1.15, out: 8, cr: 0.15 },
  { id: 'kimi-k2-0905-preview', in: 0.6, out: 2.5, cr: 0.15 },
  { id: 'kimi-k2-0711-preview', in: 0.6, out: 2.5, cr: 0.15 },
  { id: 'kimi-k2-instruct-0905', in: 1, out: 3, cr: 0.5, provider: 'groq' },

  // ── GLM (Z.ai) ────────────────────────────────────────────────────────────────────────────
  { id: 'glm-5.1', in: 1.4, out: 4.4, cr: 0.26 },
  { id: 'glm-5', in: 1, out: 3.2, cr: 0.2 },
  { id: 'glm-5-code', in: 1.2, out: 5, cr: 0.3 },
  { id: 'glm-4.7', in: 0.6, out: 2.2, cr: 0.11 },
  { id: 'glm-4.7-flash', in: 0, out: 0 },
  { id: 'glm-4.6', in: 0.6, out: 2.2, cr: 0.11 },
  { id: 'glm-4.5', in: 0.6, out: 2.2 },
  { id: 'glm-4.5-air', in: 0.2, out: 1.1 },
  { id: 'glm-4.5-flash', in: 0, out: 0 },

  // ── MiniMax ───────────────────────────────────────────────────────────────────────────────
  { id: 'minimax-m3', in: 0.3, out: 1.2, cr: 0.06, unconfirmed: true },
  { id: 'minimax-m2.7', in: 0.3, out: 1.2, cr: 0.06, cw: 0.375, unconfirmed: true },
  { id: 'minimax-m2.5', in: 0.3, out: 1.2, cr: 0.03, cw: 0.375 },
  { id: 'minimax-m2.1', in: 0.3, out: 1.2, cr: 0.03, cw: 0.375 },
  { id: 'minimax-m2', in: 0.3, out: 1.2, cr: 0.03, cw: 0.375 },

  // ── Groq (Llama and others as Groq serves them) ───────────────────────────────────────────
  { id: 'llama-3.3-70b-versatile', in: 0.59, out: 0.79, provider: 'groq' },
  { id: 'llama-3.1-8b-instant', in: 0.05, out: 0.08, provider: 'groq' },
  { id: 'llama-4-maverick-17b-128e-instruct', in: 0.2, out: 0.6, provider: 'groq' },
  { id: 'llama-4-scout-17b-16e-instruct', in: 0.11, out: 0.34, provider: 'groq' },
];
