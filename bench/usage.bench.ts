/**
 * `hermes usage` on a large store: a state.db of 10,000 sessions with 10 model calls each
 * (100,000 `model_calls` rows, a tenth of the sessions also with tokens from before costs were
 * stored), and the time of one report grouped by model, by day, and in all over the last 7 days.
 * Goal on the 2-core machine: ≤ 250 ms a report (the command's own start-up not included).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionDB } from '../core/src/state/session-db.js';
import type { UsageGrouping } from '../core/src/state/usage-report.js';
import type { Benchmark } from './lib/types.js';

const SESSIONS = 10_000;
const CALLS_PER_SESSION = 10;
const MODELS = ['gpt-4o', 'claude-sonnet-4-5', 'anthropic/claude-sonnet-4.5', 'deepseek-chat', 'mystery'];
const DAY = 86_400_000;

let seeded: { file: string; dir: string } | undefined;

/** Builds the database once per run of the file. */
function seed(): string {
  if (seeded) return seeded.file;
  const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-usage-'));
  const file = join(dir, 'state.db');
  const db = SessionDB.open(file);
  const now = Date.now();
  for (let i = 0; i < SESSIONS; i++) {
    const startedAt = now - (i % 60) * DAY;
    const s = db.createSession({ source: 'bench', model: MODELS[i % MODELS.length]!, startedAt });
    for (let c = 0; c < CALLS_PER_SESSION; c++) {
      const model = MODELS[(i + c) % MODELS.length]!;
      db.modelCalls.record(s.id, {
        model,
        provider: 'openai',
        timestamp: startedAt + c * 60_000,
        prompt_tokens: 1000 + c,
        completion_tokens: 100,
        cached_tokens: 400,
        cost_micros: model === 'mystery' ? null : 2_500 + c,
        cost_status: model === 'mystery' ? 'unknown' : 'priced',
      });
    }
    if (i % 10 === 0) db.addUsage(s.id, 500, 50);
  }
  db.close();
  seeded = { file, dir };
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return file;
}

function reportBench(name: string, by: UsageGrouping, sinceDays?: number): Benchmark {
  return {
    name,
    unit: 'ms',
    goal: 250,
    async run() {
      const file = seed();
      const db = SessionDB.open(file, { readonly: true });
      const samples: number[] = [];
      try {
        for (let i = 0; i < 12; i++) {
          const since = sinceDays === undefined ? undefined : Date.now() - sinceDays * DAY;
          const t0 = performance.now();
          db.usageReports.report({ by, ...(since !== undefined ? { since } : {}) });
          if (i > 1) samples.push(performance.now() - t0);
        }
      } finally {
        db.close();
      }
      return samples;
    },
  };
}

export const benchmarks: Benchmark[] = [
  reportBench('usage.report.by_model', 'model'),
  reportBench('usage.report.by_day', 'day'),
  reportBench('usage.report.total_7d', 'total', 7),
];
