/**
 * `hermes status --tmux` (goal ≤ 50 ms median): the whole process, from spawn to exit, against a
 * running daemon with one live session, as tmux runs it every few seconds. `status.tmux.node_bare`
 * is `node -e 0` in the same run, interleaved sample by sample (this machine's floor), and
 * `status.tmux.added` the paired difference: what the command costs beyond starting Node.
 */
import { spawn } from 'node:child_process';
import { connect } from '@hermes/client';
import { HERMES_BIN, hermesEnv, makeTestHome, runHermes } from '../tests/support/hermes-cli.js';
import { killDaemons } from '../tests/support/gateway-process.js';
import type { Benchmark } from './lib/types.js';

const RUNS = 21;

function timed(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; out: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve({ ms: performance.now() - t0, out }));
  });
}

interface Samples {
  tmux: number[];
  bare: number[];
}

let measured: Promise<Samples> | undefined;

async function measure(): Promise<Samples> {
  const root = makeTestHome({
    config: 'model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  default: fake',
  });
  const started = await runHermes(root, ['gateway', 'start']);
  if (started.code !== 0) throw new Error(`daemon did not start: ${started.stderr}`);
  const c = await connect({ root }, { name: 'bench', capabilities: { approvals: false } });
  const out: Samples = { tmux: [], bare: [] };
  try {
    const { session } = await c.request('session.create', {});
    await c.request('session.attach', { session_id: session.id });
    const env = hermesEnv(root);
    const first = await timed([HERMES_BIN, 'status', '--tmux'], env); // warm the file cache
    if (first.out !== '\n') throw new Error(`unexpected line ${JSON.stringify(first.out)}`);
    for (let i = 0; i < RUNS; i++) {
      out.tmux.push((await timed([HERMES_BIN, 'status', '--tmux'], env)).ms);
      out.bare.push((await timed(['-e', '0'], env)).ms);
    }
  } finally {
    await c.close();
    await runHermes(root, ['gateway', 'stop']);
    killDaemons(root);
  }
  return out;
}

const samples = (): Promise<Samples> => (measured ??= measure());

export const benchmarks: Benchmark[] = [
  { name: 'status.tmux', unit: 'ms', goal: 50, run: async () => (await samples()).tmux },
  { name: 'status.tmux.node_bare', unit: 'ms', run: async () => (await samples()).bare },
  {
    name: 'status.tmux.added',
    unit: 'ms',
    run: async () => {
      const s = await samples();
      return s.tmux.map((t, i) => t - s.bare[i]!);
    },
  },
];
