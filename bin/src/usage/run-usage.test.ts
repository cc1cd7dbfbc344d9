import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HermesHome } from '@hermes/core/home';
import { SessionDB } from '@hermes/core/state';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliExit } from '../context.js';
import { runCliInProcess } from '../testing.js';
import { parseSince } from './run-usage.js';

let root: string;
let home: HermesHome;
const NOW = Date.now();
const HOUR = 3_600_000;

/** A profile's database with calls: a priced gpt-4o call 2 h ago, an unpriced one 3 days ago. */
function seed(h: HermesHome, micros: number): void {
  h.ensure();
  const db = SessionDB.open(h.stateDbFile, { warn: () => {} });
  const s = db.createSession({ source: 'tui', model: 'gpt-4o', startedAt: NOW - 80 * HOUR });
  const base = { provider: 'openai', prompt_tokens: 1000, completion_tokens: 100, cached_tokens: 300 };
  db.modelCalls.record(s.id, {
    ...base,
    model: 'gpt-4o',
    timestamp: NOW - 2 * HOUR,
    cost_micros: micros,
    cost_status: 'priced',
  });
  db.modelCalls.record(s.id, {
    ...base,
    model: 'mystery',
    timestamp: NOW - 72 * HOUR,
    cost_micros: null,
    cost_status: 'unknown',
  });
  db.close();
}

const usage = async (...argv: string[]) =>
  JSON.parse((await runCliInProcess(home, ['usage', ...argv, '--json'])).out);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-usage-'));
  home = new HermesHome(root);
  seed(home, 12_345);
  seed(home.forProfile('work'), 1_000_000);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('hermes usage', () => {
  it('--by model: this profile only, unknown-priced usage apart, totals', async () => {
    const r = await usage('--by', 'model');
    expect(r.profiles).toEqual(['default']);
    expect(r.rows).toEqual([
      expect.objectContaining({
        key: 'gpt-4o',
        calls: 1,
        input_tokens: 1000,
        cached_tokens: 300,
        output_tokens: 100,
        cost_usd: 0.012345,
        cost_status: 'priced',
      }),
      expect.objectContaining({ key: 'mystery', calls: 1, unpriced_tokens: 1100, cost_status: 'unknown' }),
    ]);
    expect(r.rows[1]).not.toHaveProperty('cost_usd');
    expect(r.total).toMatchObject({
      calls: 2,
      input_tokens: 2000,
      cost_usd: 0.012345,
      cost_status: 'partial',
      unpriced_tokens: 1100,
    });
  });

  it('--by profile reads every profile, one row each; --since filters', async () => {
    const r = await usage('--by', 'profile');
    expect(r.rows.map((x: { key: string; cost_usd: number }) => [x.key, x.cost_usd])).toEqual([
      ['default', 0.012345],
      ['work', 1],
    ]);
    expect(r.total).toMatchObject({ calls: 4, cost_usd: 1.012345 });
    const recent = await usage('--by', 'profile', '--since', '24h');
    expect(recent.total).toMatchObject({
      calls: 2,
      cost_usd: 1.012345,
      cost_status: 'priced',
      unpriced_tokens: 0,
    });
    // the work profile selected (-p work): its data alone
    const work = JSON.parse((await runCliInProcess(home.forProfile('work'), ['usage', '--json'])).out);
    expect(work.total).toMatchObject({ calls: 2, cost_usd: 1 });
  });

  it('--by day groups by local day; the text form has a totals line and says what is unpriced', async () => {
    const r = await usage('--by', 'day');
    expect(r.rows).toHaveLength(2);
    expect(r.rows.map((x: { calls: number }) => x.calls)).toEqual([1, 1]);
    const text = (await runCliInProcess(home, ['usage'])).out;
    expect(text).toMatch(/^Usage of profile default, by model/);
    expect(text).toMatch(/gpt-4o\s+1\s+1,000\s+300\s+100\s+\$0\.0123\n/);
    expect(text).toMatch(/total\s+2\s+2,000\s+600\s+200\s+\$0\.0123 \(partial\)/);
    expect(text).toContain('1,100 tokens of models without a known price');
  });

  it('an empty home has no usage; a bad --since is refused naming it', async () => {
    const empty = new HermesHome(mkdtempSync(join(tmpdir(), 'hermes-usage-empty-')));
    try {
      expect((await runCliInProcess(empty, ['usage'])).out).toContain('nothing used');
    } finally {
      rmSync(empty.root, { recursive: true, force: true });
    }
    const err = await runCliInProcess(home, ['usage', '--since', 'yesterday']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliExit);
    expect((err as CliExit).message).toContain('--since');
  });

  it('parses spans and dates', () => {
    expect(parseSince('7d', 1_000_000_000_000)).toBe(1_000_000_000_000 - 7 * 86_400_000);
    expect(parseSince('30m', 10_000_000)).toBe(10_000_000 - 1_800_000);
    expect(parseSince('2026-11-01', 0)).toBe(new Date(2026, 10, 1).getTime());
    expect(parseSince('2026-11-01T12:00:00Z', 0)).toBe(Date.UTC(2026, 10, 1, 12));
    expect(() => parseSince('2026-13-01', 0)).toThrow(CliExit);
  });
});
