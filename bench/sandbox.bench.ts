/**
 * Sandbox overhead per `terminal` call: the same call through the terminal tool on the bare host
 * and inside the sandbox (bubblewrap, workspace mode), alternated so both see the same machine
 * load; `added` is the median of the per-pair differences. Goal: ≤ 15 ms added per call.
 *
 * - `sandbox.terminal.true.*`: `true`;
 * - `sandbox.terminal.ls1000.*`: `ls -R` over a tree of 1,000 files (40 folders × 25 files) in the
 *   working folder.
 *
 * Where bwrap cannot run, only the bare-host numbers are measured (and the reason is printed).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '@hermes/core/config';
import { HermesHome } from '@hermes/core/home';
import {
  builtinTools,
  createSessionSandbox,
  detectSandbox,
  runTool,
  type ToolContext,
} from '@hermes/core/tools';
import type { Benchmark } from './lib/types.js';

const PAIRS = 30;

interface Fixture {
  base: string;
  bare: ToolContext;
  boxed: ToolContext;
}

function fixture(): Fixture {
  const base = mkdtempSync(join(tmpdir(), 'hermes-bench-sandbox-'));
  const work = join(base, 'work');
  for (let d = 0; d < 40; d++) {
    const dir = join(work, 'tree', `d${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 25; f++) writeFileSync(join(dir, `f${f}.txt`), 'x');
  }
  const home = new HermesHome(join(base, 'root')).ensure();
  const config = defaultConfig();
  config.terminal.sandbox = 'workspace';
  const bare: ToolContext = {
    home,
    config: defaultConfig(),
    secrets: {},
    sessionId: 'bench',
    cwd: work,
    signal: new AbortController().signal,
    checkCommand: async () => ({ allowed: true, reason: 'safe' }),
    checkScript: async () => ({ allowed: true, reason: 'approved' }),
    todos: [],
    progress: () => {},
  };
  const sandbox = createSessionSandbox({ lane: 'cron', home, sessionId: `bench-${process.pid}` }).forConfig(
    config,
  );
  return { base, bare, boxed: { ...bare, config, sandbox } };
}

const terminal = builtinTools().find((t) => t.name === 'terminal')!;

async function callMs(command: string, ctx: ToolContext): Promise<number> {
  const t0 = performance.now();
  const r = await runTool(terminal, JSON.stringify({ command }), ctx);
  const ms = performance.now() - t0;
  if (!r.ok) throw new Error(`bench command failed: ${r.content.slice(0, 300)}`);
  return ms;
}

/** Bare, sandboxed and added (paired difference) samples of `command`, measured once and shared. */
function measure(command: string): () => Promise<{ bare: number[]; boxed: number[]; added: number[] }> {
  let done: Promise<{ bare: number[]; boxed: number[]; added: number[] }> | undefined;
  return () =>
    (done ??= (async () => {
      const fx = fixture();
      const available = detectSandbox().available;
      try {
        for (let i = 0; i < 3; i++) {
          await callMs(command, fx.bare);
          if (available) await callMs(command, fx.boxed);
        }
        const bare: number[] = [];
        const boxed: number[] = [];
        const added: number[] = [];
        for (let i = 0; i < PAIRS; i++) {
          const b = await callMs(command, fx.bare);
          bare.push(b);
          if (!available) continue;
          const s = await callMs(command, fx.boxed);
          boxed.push(s);
          added.push(s - b);
        }
        return { bare, boxed, added };
      } finally {
        rmSync(fx.base, { recursive: true, force: true });
      }
    })());
}

const support = detectSandbox();
if (!support.available) process.stderr.write(`sandbox benchmarks: bare host only — ${support.reason}\n`);

function trio(id: string, command: string): Benchmark[] {
  const m = measure(command);
  const list: Benchmark[] = [
    { name: `sandbox.terminal.${id}.bare`, unit: 'ms', run: async () => (await m()).bare },
  ];
  if (support.available) {
    list.push(
      { name: `sandbox.terminal.${id}.sandboxed`, unit: 'ms', run: async () => (await m()).boxed },
      { name: `sandbox.terminal.${id}.added`, unit: 'ms', goal: 15, run: async () => (await m()).added },
    );
  }
  return list;
}

export const benchmarks: Benchmark[] = [...trio('true', 'true'), ...trio('ls1000', 'ls -R tree > /dev/null')];
