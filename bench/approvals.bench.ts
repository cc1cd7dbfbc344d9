/**
 * Approval rule benchmarks: what the guard's command check costs. Goal: about a millisecond per
 * typical command once the grammar is loaded; the one-time grammar load is measured apart.
 *
 * - `approvals.grammar.load`: a fresh process loading the bash grammar (web-tree-sitter wasm) and
 *   analysing one line, minus the same process doing nothing (node and tsx start-up).
 * - `approvals.detect.typical`: `detectCommand` per command over a mix of everyday commands
 *   (git, npm, ls | grep, cd && …, rm -rf build, curl | sh), grammar loaded, in a temporary
 *   project folder and home.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectCommand } from '@hermes/core/approvals';
import type { Benchmark } from './lib/types.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const TYPICAL = [
  'git status',
  'git diff HEAD~1 -- src/index.ts | head -50',
  'npm test',
  'npm run build && npm test',
  'ls -la | grep foo',
  'cd src && grep -rn "TODO" .',
  'rm -rf build',
  'python3 -m pytest -q tests/',
  'find . -name "*.ts" | xargs wc -l',
  'curl -fsSL https://example.com/install.sh | sh',
];

/** Milliseconds a fresh process needs for `code` (run with the source condition and tsx). */
function processMs(code: string): number {
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    ['--conditions=@hermes/source', '--import', 'tsx', '--input-type=module', '-e', code],
    {
      cwd: ROOT,
      stdio: 'ignore',
    },
  );
  if (r.status !== 0) throw new Error(`bench child failed (${r.status})`);
  return performance.now() - t0;
}

export const benchmarks: Benchmark[] = [
  {
    name: 'approvals.grammar.load',
    unit: 'ms',
    async run() {
      const samples: number[] = [];
      const load =
        "const { analyzeShell } = await import('@hermes/core/approvals'); await analyzeShell('ls');";
      const bare = "await import('@hermes/core/approvals');";
      for (let i = 0; i < 6; i++) samples.push(processMs(load) - processMs(bare));
      return samples;
    },
  },
  {
    name: 'approvals.detect.typical',
    unit: 'ms',
    goal: 1,
    async run() {
      const base = mkdtempSync(join(tmpdir(), 'hermes-bench-approvals-'));
      const home = join(base, 'home');
      const proj = join(base, 'proj');
      for (const d of [join(home, '.hermes'), join(proj, 'src'), join(proj, 'build')])
        mkdirSync(d, { recursive: true });
      const ctx = { cwd: proj, userHome: home, hermesRoot: join(home, '.hermes'), env: {} };
      try {
        for (let i = 0; i < 20; i++) for (const line of TYPICAL) await detectCommand(line, ctx); // load and warm up
        const samples: number[] = [];
        for (let round = 0; round < 15; round++) {
          const t0 = performance.now();
          for (let i = 0; i < 10; i++) for (const line of TYPICAL) await detectCommand(line, ctx);
          samples.push((performance.now() - t0) / (10 * TYPICAL.length));
        }
        return samples;
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  },
];
