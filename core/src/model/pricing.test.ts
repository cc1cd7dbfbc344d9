import { describe, expect, it } from 'vitest';
import type { HermesConfig } from '../config/schema.js';
import {
  addCost,
  costMicros,
  costOf,
  emptyCostSum,
  isLocalEndpoint,
  priceKey,
  resolvePrice,
  sumFields,
  tablePrice,
  withCost,
} from './pricing.js';
import { PRICE_TABLE } from './pricing-table.js';

describe('model ids', () => {
  it('match with and without vendor prefix, dated suffix, dots or case', () => {
    expect(priceKey('anthropic/claude-sonnet-4.5')).toBe('claude-sonnet-4-5');
    expect(priceKey('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(priceKey('OpenAI/GPT-4o-mini-2024-07-18')).toBe('gpt-4o-mini');
    expect(priceKey('deepseek/deepseek-chat:free')).toBe('deepseek-chat');
    for (const id of [
      'anthropic/claude-sonnet-4.5',
      'claude-sonnet-4-5',
      'claude-sonnet-4-5-20250929',
      'CLAUDE-SONNET-4.5',
    ])
      expect(tablePrice(id)?.id).toBe('claude-sonnet-4-5');
  });

  it('takes the longest table id the model extends, never across a version number', () => {
    expect(tablePrice('gpt-4o-mini')?.id).toBe('gpt-4o-mini');
    expect(tablePrice('gpt-4o')?.id).toBe('gpt-4o');
    expect(tablePrice('claude-opus-4-5-thinking')?.id).toBe('claude-opus-4-5');
    expect(tablePrice('gpt-4.1-mini')?.id).toBe('gpt-4.1-mini');
    expect(tablePrice('gpt-4.5-preview')).toBeUndefined(); // not gpt-4's price
    expect(tablePrice('claude-sonnet-4-9')).toBeUndefined(); // not claude-sonnet-4's
    expect(tablePrice('my-own-model')).toBeUndefined();
  });

  it('applies provider-scoped rows only to that provider', () => {
    expect(tablePrice('llama-3.3-70b-versatile', 'groq')?.in).toBe(0.59);
    expect(tablePrice('llama-3.3-70b-versatile', 'together')).toBeUndefined();
    expect(tablePrice('openai/gpt-oss-120b', 'groq')?.out).toBe(0.6);
  });

  it('has a sane table: unique ids per provider, prices non-negative', () => {
    const keys = PRICE_TABLE.map((r) => `${r.provider ?? ''}|${priceKey(r.id)}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of PRICE_TABLE) {
      for (const v of [r.in, r.out, r.cr ?? 0, r.cw ?? 0]) expect(v).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('cost of a call', () => {
  const sonnet = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };

  it('prices uncached, cached, cache-written and output tokens exactly (micro-dollars)', () => {
    // 10,000 prompt tokens of which 6,000 cached and 1,000 written; 500 output
    // = 3,000 × $3 + 6,000 × $0.30 + 1,000 × $3.75 + 500 × $15 per million
    // = 9,000 + 1,800 + 3,750 + 7,500 = 22,050 µ$
    const usage = {
      prompt_tokens: 10_000,
      completion_tokens: 500,
      total_tokens: 10_500,
      cached_tokens: 6_000,
      cache_write_tokens: 1_000,
    };
    expect(costMicros(usage, sonnet)).toBe(22_050);
  });

  it('rounds once, half up, to a micro-dollar', () => {
    // 3 tokens × $0.15 per million = 0.45 µ$ → 0; 5 × 0.15 = 0.75 → 1; 10 × 0.05 = 0.5 → 1
    const u = (p: number) => ({ prompt_tokens: p, completion_tokens: 0, total_tokens: p });
    expect(costMicros(u(3), { input: 0.15, output: 0 })).toBe(0);
    expect(costMicros(u(5), { input: 0.15, output: 0 })).toBe(1);
    expect(costMicros(u(10), { input: 0.05, output: 0 })).toBe(1);
  });

  it('bills missing cache prices as input and clamps cached tokens to the prompt', () => {
    const usage = { prompt_tokens: 100, completion_tokens: 0, total_tokens: 100, cached_tokens: 150 };
    expect(costMicros(usage, { input: 2, output: 8 })).toBe(200);
  });

  it('adds cost fields to the usage; unknown gives no number', () => {
    const usage = { prompt_tokens: 1_000_000, completion_tokens: 0, total_tokens: 1_000_000 };
    expect(
      withCost(usage, costOf(usage, { status: 'priced', price: sonnet, source: 'table' })),
    ).toMatchObject({
      cost_usd: 3,
      cost_status: 'priced',
    });
    const unknown = withCost(usage, costOf(usage, { status: 'unknown' }));
    expect(unknown.cost_status).toBe('unknown');
    expect(unknown).not.toHaveProperty('cost_usd');
    expect(withCost(usage, costOf(usage, { status: 'local' }))).toMatchObject({
      cost_usd: 0,
      cost_status: 'local',
    });
  });

  it('sums calls: local, priced, partial, unknown', () => {
    const priced = { micros: 1_500, status: 'priced' as const };
    const local = { micros: 0, status: 'local' as const };
    const unknown = { micros: null, status: 'unknown' as const };
    expect(sumFields(emptyCostSum())).toEqual({ cost_status: 'unknown' });
    expect(sumFields(addCost(emptyCostSum(), local))).toEqual({ cost_usd: 0, cost_status: 'local' });
    expect(sumFields(addCost(addCost(emptyCostSum(), local), priced))).toEqual({
      cost_usd: 0.0015,
      cost_status: 'priced',
    });
    expect(sumFields(addCost(addCost(emptyCostSum(), priced), unknown))).toEqual({
      cost_usd: 0.0015,
      cost_status: 'partial',
    });
    expect(sumFields(addCost(emptyCostSum(), unknown))).toEqual({ cost_status: 'unknown' });
  });
});

describe('which price applies', () => {
  const config = (pricing?: { input: number; output: number }) =>
    ({ model: { default: 'my-model', ...(pricing ? { pricing } : {}) } }) as unknown as Pick<
      HermesConfig,
      'model'
    >;

  it('local servers cost nothing and say local; custom only on a private address', () => {
    expect(isLocalEndpoint('ollama')).toBe(true);
    expect(isLocalEndpoint('custom', 'http://127.0.0.1:11434/v1')).toBe(true);
    expect(isLocalEndpoint('custom', 'http://192.168.1.20:8000/v1')).toBe(true);
    expect(isLocalEndpoint('custom', 'http://gpu-box.local:8000/v1')).toBe(true);
    expect(isLocalEndpoint('custom', 'https://api.example.com/v1')).toBe(false);
    expect(isLocalEndpoint('openrouter', 'http://127.0.0.1:9/v1')).toBe(false);
    expect(resolvePrice({ provider: 'lmstudio', model: 'gpt-4o' })).toEqual({ status: 'local' });
  });

  it('an unknown hosted model is unknown, never a made-up price', () => {
    expect(
      resolvePrice({ provider: 'custom', model: 'mystery-7b', baseURL: 'https://llm.example.com/v1' }),
    ).toEqual({
      status: 'unknown',
    });
  });

  it('model.pricing prices the configured model, even on a local server', () => {
    const c = config({ input: 1, output: 2 });
    expect(
      resolvePrice(
        { provider: 'custom', model: 'my-model', baseURL: 'http://127.0.0.1:1/v1' },
        { config: c },
      ),
    ).toEqual({ status: 'priced', price: { input: 1, output: 2 }, source: 'config' });
    // another model of the same session (a fallback) is not priced by it
    expect(resolvePrice({ provider: 'openai', model: 'gpt-4o' }, { config: c })).toMatchObject({
      source: 'table',
    });
  });

  it('endpoint prices win over the table', () => {
    const endpointPrice = () => ({ input: 9, output: 9 });
    expect(resolvePrice({ provider: 'openrouter', model: 'openai/gpt-4o' }, { endpointPrice })).toEqual({
      status: 'priced',
      price: { input: 9, output: 9 },
      source: 'endpoint',
    });
    expect(resolvePrice({ provider: 'openrouter', model: 'openai/gpt-4o' })).toMatchObject({
      price: { input: 2.5, output: 10, cache_read: 1.25 },
      source: 'table',
    });
  });
});
