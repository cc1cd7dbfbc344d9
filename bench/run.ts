/**
 * Benchmark runner: `npm run bench [-- --filter NAME] [--compare] [--save-baseline]`.
 *
 * Loads every `bench/*.bench.ts` (each exports `benchmarks: Benchmark[]`), runs each, and reports
 * the median of its samples (machines here are noisy: medians and ratios, never single runs).
 * - results go to `bench/results/latest.json` (not committed);
 * - `--compare` prints the ratio to `bench/baseline.json` (committed) for each benchmark;
 * - `--save-baseline` writes the current medians into `bench/baseline.json`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cpus } from 'node:os';
import type { Benchmark } from './lib/types.js';
import { median, percentile } from './lib/stats.js';

interface Result {
  name: string;
  unit: string;
  median: number;
  p99: number;
  min: number;
  max: number;
  samples: number;
  higherIsBetter: boolean;
  goal?: number;
}

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(name);
const filterIdx = args.indexOf('--filter');
const filter = filterIdx >= 0 ? args[filterIdx + 1] : undefined;
const baselineFile = join(here, 'baseline.json');

function fmt(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3);
}

async function main(): Promise<void> {
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort();
  const results: Result[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as { benchmarks?: Benchmark[] };
    for (const b of mod.benchmarks ?? []) {
      if (filter && !b.name.includes(filter)) continue;
      process.stderr.write(`running ${b.name} …\n`);
      const samples = await b.run();
      if (samples.length === 0) throw new Error(`${file}: ${b.name} returned no samples`);
      results.push({
        name: b.name,
        unit: b.unit,
        median: median(samples),
        p99: percentile(samples, 99),
        min: Math.min(...samples),
        max: Math.max(...samples),
        samples: samples.length,
        higherIsBetter: Boolean(b.higherIsBetter),
        ...(b.goal !== undefined ? { goal: b.goal } : {}),
      });
    }
  }

  const baseline: Record<string, { median: number; unit: string }> = existsSync(baselineFile)
    ? (
        JSON.parse(readFileSync(baselineFile, 'utf8')) as {
          results: Record<string, { median: number; unit: string }>;
        }
      ).results
    : {};
  const rows = results.map((r) => {
    const goalMet =
      r.goal === undefined
        ? ''
        : (r.higherIsBetter ? r.median >= r.goal : r.median <= r.goal)
          ? 'met'
          : 'MISSED';
    const base = baseline[r.name];
    const ratio = base ? r.median / base.median : undefined;
    return [
      r.name,
      `${fmt(r.median)} ${r.unit}`,
      `p99 ${fmt(r.p99)}`,
      r.goal !== undefined ? `goal ${r.higherIsBetter ? '≥' : '≤'} ${fmt(r.goal)} ${goalMet}` : '',
      flag('--compare') ? (ratio !== undefined ? `×${ratio.toFixed(2)} vs baseline` : 'no baseline') : '',
    ];
  });
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => r[i]!.length))) ?? [];
  for (const row of rows)
    process.stdout.write(
      `${row
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()}\n`,
    );

  const meta = { date: new Date().toISOString(), node: process.version, cpus: cpus().length };
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'latest.json'), JSON.stringify({ ...meta, results }, null, 2));
  if (flag('--save-baseline')) {
    const merged = { ...baseline };
    for (const r of results) merged[r.name] = { median: r.median, unit: r.unit };
    writeFileSync(baselineFile, `${JSON.stringify({ ...meta, results: merged }, null, 2)}\n`);
    process.stderr.write(`baseline written: ${baselineFile}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
