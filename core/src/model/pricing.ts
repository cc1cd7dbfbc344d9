/**
 * What a model call costs: the price of a model (from `model.pricing`, the provider's models
 * endpoint or the bundled table, pricing-table.ts) and the cost of a `Usage` at that price.
 *
 * Token fields of `Usage` (protocol/events.ts), as every model path fills them:
 * - `prompt_tokens`: every input token of the call, cached and cache-written ones included
 *   (OpenAI reports it so; for Anthropic the client sums `input_tokens + cache_read_input_tokens
 *   + cache_creation_input_tokens`).
 * - `cached_tokens`: the part of `prompt_tokens` read from the provider's cache.
 * - `cache_write_tokens`: the part of `prompt_tokens` written to the cache.
 * - `completion_tokens`: every output token, `reasoning_tokens` included.
 *
 * Cost of one call, with prices in USD per million tokens:
 *   (prompt − cached − cache_write) × input + cached × cache_read + cache_write × cache_write
 *   + completion × output
 * (a missing cache price is the input price). Arithmetic is exact: each price becomes integer
 * pico-dollars per token (USD per million × 10⁶, exact for prices with up to 6 decimals), the
 * products are summed as integers, and the sum is rounded once, half up, to whole micro-dollars
 * (`costMicros`). Every total (turn, session, `hermes usage`) is a sum of those micro-dollars.
 *
 * Which price applies (`resolvePrice`): `model.pricing` for the configured model → a local
 * server (ollama, lmstudio, llamacpp, vllm, or `custom` on a loopback/private address) costs
 * nothing and says `local` → the provider's models endpoint (OpenRouter's, endpoint-prices.ts)
 * → the bundled table → `unknown` (no cost is given: a price is never invented).
 */
import type { HermesConfig } from '../config/schema.js';
import type { Usage } from '../protocol/events.js';
import { PRICE_TABLE, type PriceRow } from './pricing-table.js';

/** A model's price in USD per million tokens; a missing cache price is the input price. */
export interface ModelPrice {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

/** Where a price came from. */
export type PriceSource = 'config' | 'endpoint' | 'table';

/**
 * How a cost is known: `priced` (at a price), `local` (a local server: free), `unknown` (no price
 * for that model), `partial` (a sum where some calls had no price; the cost covers the others).
 */
export type CostStatus = 'priced' | 'local' | 'unknown' | 'partial';

/** The price that applies to one call. */
export type PriceResolution =
  { status: 'priced'; price: ModelPrice; source: PriceSource } | { status: 'local' } | { status: 'unknown' };

/** The call being priced. */
export interface PricedCall {
  /** Provider id that answered (`openrouter`, `openai`, `anthropic`, `custom`, a preset id …). */
  provider: string;
  /** Model id as sent to the provider. */
  model: string;
  /** Base URL of the endpoint, when known (decides whether a `custom` endpoint is local). */
  baseURL?: string;
}

/** What besides the call decides its price. */
export interface PriceContext {
  /** `model.pricing` applies to calls of `primaryModel` only. */
  config?: Pick<HermesConfig, 'model'>;
  /** The configured model id of the session (`model.default` or `-m`). */
  primaryModel?: string;
  /** The provider's models endpoint price of a model, when it reports one (endpoint-prices.ts). */
  endpointPrice?: (call: PricedCall) => ModelPrice | undefined;
}

/** Providers that are always a server of the user's own (no per-token price). */
export const LOCAL_PROVIDERS: ReadonlySet<string> = new Set([
  'ollama',
  'lmstudio',
  'lm-studio',
  'llamacpp',
  'llama-cpp',
  'llama.cpp',
  'vllm',
  'local',
]);

/** True for a loopback, private (RFC 1918, link-local, ULA) or `.local`/`localhost` host. */
export function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h === '::1') return true;
  if (h === '0.0.0.0' || /^127\./.test(h) || /^10\./.test(h) || /^192\.168\./.test(h)) return true;
  if (/^172\.(1[6-9]|2\d|3[01])\./.test(h) || /^169\.254\./.test(h)) return true;
  return /^f[cd][0-9a-f]{2}:/.test(h) || /^fe80:/.test(h);
}

/** True when calls to this provider/endpoint cost nothing per token (a local server). */
export function isLocalEndpoint(provider: string, baseURL?: string): boolean {
  const p = provider.toLowerCase();
  if (LOCAL_PROVIDERS.has(p)) return true;
  if (p !== 'custom' || !baseURL) return false;
  try {
    return isPrivateHost(new URL(baseURL).hostname);
  } catch {
    return false;
  }
}

/**
 * The form ids are compared in: lower case; the vendor prefix dropped (`anthropic/x` → `x`); an
 * OpenRouter variant dropped (`x:nitro` → `x`); a date suffix dropped (`-20250929`,
 * `-2025-09-29`, `@20250929`); a dot between digits read as a dash (`4.5` ≡ `4-5`).
 */
export function priceKey(model: string): string {
  let id = model.trim().toLowerCase();
  id = id.slice(id.lastIndexOf('/') + 1);
  id = id.split(':')[0] ?? '';
  id = id.replace(/(?:[-@]\d{8}|-\d{4}-\d{2}-\d{2})$/, '');
  return id.replace(/(\d)\.(?=\d)/g, '$1-');
}

interface KeyedRow {
  key: string;
  row: PriceRow;
}

const KEYED: KeyedRow[] = PRICE_TABLE.map((row) => ({ key: priceKey(row.id), row })).sort(
  (a, b) => b.key.length - a.key.length,
);

/**
 * The bundled table's row for a model: the exact id (after `priceKey`), else the longest table
 * id the model id extends with `-` and a non-digit (`claude-opus-4-5-thinking` → `claude-opus-4-5`;
 * `gpt-4.5` never matches `gpt-4`). A row scoped to a provider applies only to that provider and
 * wins over an unscoped one of the same length. Undefined when nothing matches.
 */
export function tablePrice(model: string, provider?: string): PriceRow | undefined {
  const key = priceKey(model);
  if (!key) return undefined;
  const p = provider?.toLowerCase();
  const fits = (k: KeyedRow): boolean =>
    (k.row.provider === undefined || k.row.provider === p) &&
    (key === k.key || (key.startsWith(`${k.key}-`) && !/\d/.test(key.charAt(k.key.length + 1))));
  let best: KeyedRow | undefined;
  for (const k of KEYED) {
    if (best && k.key.length < best.key.length) break;
    if (!fits(k)) continue;
    if (!best || (k.row.provider !== undefined && best.row.provider === undefined)) best = k;
  }
  return best?.row;
}

/** The table row as a `ModelPrice`. */
function rowPrice(row: PriceRow): ModelPrice {
  return {
    input: row.in,
    output: row.out,
    ...(row.cr !== undefined ? { cache_read: row.cr } : {}),
    ...(row.cw !== undefined ? { cache_write: row.cw } : {}),
  };
}

/** The price that applies to a call (see the module comment for the order). */
export function resolvePrice(call: PricedCall, ctx: PriceContext = {}): PriceResolution {
  const override = ctx.config?.model.pricing;
  const primary = ctx.primaryModel ?? ctx.config?.model.default;
  if (override && primary !== undefined && priceKey(primary) === priceKey(call.model)) {
    return { status: 'priced', price: override, source: 'config' };
  }
  if (isLocalEndpoint(call.provider, call.baseURL)) return { status: 'local' };
  const fromEndpoint = ctx.endpointPrice?.(call);
  if (fromEndpoint) return { status: 'priced', price: fromEndpoint, source: 'endpoint' };
  if (/:free$/i.test(call.model.trim()) && call.provider === 'openrouter') {
    return { status: 'priced', price: { input: 0, output: 0 }, source: 'table' };
  }
  const row = tablePrice(call.model, call.provider);
  return row ? { status: 'priced', price: rowPrice(row), source: 'table' } : { status: 'unknown' };
}

/** USD per million tokens → integer pico-dollars per token. */
function picoPerToken(usdPerMillion: number): number {
  return Math.round(usdPerMillion * 1_000_000);
}

/**
 * The cost of `usage` at `price` in whole micro-dollars (see the module comment: exact integer
 * pico-dollar products, rounded once half up). Cached and cache-written tokens above
 * `prompt_tokens` are clamped to it.
 */
export function costMicros(usage: Usage, price: ModelPrice): number {
  const prompt = usage.prompt_tokens;
  const cached = Math.min(usage.cached_tokens ?? 0, prompt);
  const written = Math.min(usage.cache_write_tokens ?? 0, prompt - cached);
  const plain = prompt - cached - written;
  const pico =
    plain * picoPerToken(price.input) +
    cached * picoPerToken(price.cache_read ?? price.input) +
    written * picoPerToken(price.cache_write ?? price.input) +
    usage.completion_tokens * picoPerToken(price.output);
  const rest = pico % 1_000_000;
  return (pico - rest) / 1_000_000 + (rest >= 500_000 ? 1 : 0);
}

/** Micro-dollars → USD (a number with at most 6 decimals). */
export function microsToUsd(micros: number): number {
  return Math.round(micros) / 1_000_000;
}

/** USD → whole micro-dollars. */
export function usdToMicros(usd: number): number {
  return Math.round(usd * 1_000_000);
}

/** The cost of one call: its micro-dollars (null when unknown), status and price source. */
export interface CallCost {
  micros: number | null;
  status: 'priced' | 'local' | 'unknown';
  source?: PriceSource;
}

/** Prices one call's usage. */
export function costOf(usage: Usage, resolution: PriceResolution): CallCost {
  if (resolution.status === 'local') return { micros: 0, status: 'local' };
  if (resolution.status === 'unknown') return { micros: null, status: 'unknown' };
  return { micros: costMicros(usage, resolution.price), status: 'priced', source: resolution.source };
}

/** `usage` with `cost_usd`/`cost_status` of `cost` (no `cost_usd` when unknown). */
export function withCost(usage: Usage, cost: CallCost): Usage {
  const { cost_usd: _drop, cost_status: _drop2, ...rest } = usage;
  return {
    ...rest,
    ...(cost.micros !== null ? { cost_usd: microsToUsd(cost.micros) } : {}),
    cost_status: cost.status,
  };
}

/** A running sum of call costs. */
export interface CostSum {
  /** Micro-dollars of the calls with a known cost. */
  micros: number;
  /** Calls priced at a price. */
  priced: number;
  /** Calls to a local server. */
  local: number;
  /** Calls without a price. */
  unknown: number;
}

/** An empty sum. */
export const emptyCostSum = (): CostSum => ({ micros: 0, priced: 0, local: 0, unknown: 0 });

/** Adds one call to a sum (a new object). */
export function addCost(sum: CostSum, cost: CallCost): CostSum {
  return {
    micros: sum.micros + (cost.micros ?? 0),
    priced: sum.priced + (cost.status === 'priced' ? 1 : 0),
    local: sum.local + (cost.status === 'local' ? 1 : 0),
    unknown: sum.unknown + (cost.status === 'unknown' ? 1 : 0),
  };
}

/**
 * The status of a sum: `unknown` when no call had a price (or there were none), `partial` when
 * some had none, `local` when every call was local, else `priced`.
 */
export function sumStatus(sum: CostSum): CostStatus {
  const known = sum.priced + sum.local;
  if (known === 0) return 'unknown';
  if (sum.unknown > 0) return 'partial';
  return sum.priced === 0 ? 'local' : 'priced';
}

/** The wire fields of a sum: `cost_usd` (absent when nothing is known) and `cost_status`. */
export function sumFields(sum: CostSum): { cost_usd?: number; cost_status: CostStatus } {
  const status = sumStatus(sum);
  return status === 'unknown'
    ? { cost_status: status }
    : { cost_usd: microsToUsd(sum.micros), cost_status: status };
}
