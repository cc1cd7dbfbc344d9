import { describe, expect, it } from 'vitest';
import type { ModelCallInput } from './model-calls.js';
import type { SessionDB } from './session-db.js';
import { useStateDbFile } from './testing.js';
import { totalRow } from './usage-report.js';

const fx = useStateDbFile('hermes-usage-report-');
const DAY1 = Date.UTC(2026, 10, 1, 10); // 2026-11-01 10:00 UTC
const DAY2 = Date.UTC(2026, 10, 2, 23, 30); // 2026-11-02 23:30 UTC

function seed(d: SessionDB): void {
  const a = d.createSession({ source: 'tui', model: 'gpt-4o', startedAt: DAY1 });
  const b = d.createSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: DAY2 });
  const old = d.createSession({ source: 'tui', model: 'gpt-4o', startedAt: DAY1 });
  const rec = (id: string, c: Partial<ModelCallInput> & Pick<ModelCallInput, 'model' | 'timestamp'>) =>
    d.modelCalls.record(id, {
      provider: 'openai',
      prompt_tokens: 1000,
      completion_tokens: 100,
      cost_micros: 1_000,
      cost_status: 'priced',
      ...c,
    });
  rec(a.id, { model: 'gpt-4o', timestamp: DAY1, cached_tokens: 200 });
  rec(a.id, { model: 'gpt-4o', timestamp: DAY2, cost_micros: 3_000 });
  rec(b.id, { model: 'claude-sonnet-4-5', timestamp: DAY2, cost_micros: 20_000, cache_write_tokens: 50 });
  rec(b.id, { model: 'mystery', timestamp: DAY2 + 60_000, cost_micros: null, cost_status: 'unknown' });
  // a session counted before costs were stored: tokens only
  d.addUsage(old.id, 500, 50);
}

describe('usage reports', () => {
  it('by model: tokens, cost, unknown-priced usage apart; most expensive first', () => {
    const d = fx.open();
    seed(d);
    const rows = d.usageReports.report({ by: 'model' });
    expect(rows.map((r) => [r.key, r.calls, r.prompt_tokens, r.cost_micros, r.cost_status])).toEqual([
      ['claude-sonnet-4-5', 1, 1000, 20_000, 'priced'],
      ['gpt-4o', 2, 2500, 4_000, 'partial'], // 500 untracked tokens of the old session
      ['mystery', 1, 1000, 0, 'unknown'],
    ]);
    expect(rows.find((r) => r.key === 'gpt-4o')).toMatchObject({ cached_tokens: 200, untracked_tokens: 550 });
    expect(rows.find((r) => r.key === 'mystery')).toMatchObject({ unknown_tokens: 1100 });
    const total = totalRow(rows);
    expect(total).toMatchObject({
      calls: 4,
      prompt_tokens: 4500,
      completion_tokens: 450,
      cost_micros: 24_000,
      unknown_tokens: 1100,
      untracked_tokens: 550,
      cost_status: 'partial',
    });
  });

  it('by day (local time given as an offset), oldest first; since filters', () => {
    const d = fx.open();
    seed(d);
    const utc = d.usageReports.report({ by: 'day', utcOffsetMinutes: 0 });
    expect(utc.map((r) => [r.key, r.calls, r.cost_micros])).toEqual([
      ['2026-11-01', 1, 1_000],
      ['2026-11-02', 3, 23_000],
    ]);
    // one hour east of UTC, 23:30 on the 2nd is already the 3rd
    // local time not a whole hour from UTC (India): a day still sums every call of it
    const india = d.usageReports.report({ by: 'day', utcOffsetMinutes: 330 });
    expect(india.map((r) => [r.key, r.calls])).toEqual([
      ['2026-11-01', 1],
      ['2026-11-03', 3],
    ]);
    const east = d.usageReports.report({ by: 'day', utcOffsetMinutes: 60 });
    expect(east.map((r) => [r.key, r.cost_micros])).toEqual([
      ['2026-11-01', 1_000],
      ['2026-11-03', 23_000],
    ]);
    const since = d.usageReports.report({ by: 'total', since: DAY2 });
    expect(since).toMatchObject([{ key: 'total', calls: 3, cost_micros: 23_000, untracked_tokens: 0 }]);
  });

  it('an empty database reports nothing', () => {
    expect(fx.open().usageReports.report({ by: 'model' })).toEqual([]);
  });
});
