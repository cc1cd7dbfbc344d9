/**
 * The tmux status line (goal ≤ 50 ms median), the whole process from spawn to exit against a
 * running daemon with one live session, as tmux runs it every few seconds:
 * `status.tmux.sh` is `bin/hermes-status-line` (POSIX sh, the daemon's status-line file — the one
 * the docs put in tmux.conf), `status.tmux` is `hermes status --tmux` (Node), `status.tmux.node_bare`
 * is `node -e 0` in the same run, interleaved sample by sample (this machine's floor for any Node
 * command), and `status.tmux.added` the paired difference: what the Node command costs beyond
 * starting Node.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { connect } from '@hermes/client';
import { HERMES_BIN, hermesEnv, makeTestHome, runHermes } from '../tests/support/hermes-cli.js';
import { killDaemons } from '../tests/support/gateway-process.js';
import type { Benchmark } from './lib/types.js';

const RUNS = 21;

const STATUS_LINE_SH = join(dirname(HERMES_BIN), 'hermes-status-line');

function timed(
  args: string[],
  env: NodeJS.ProcessEnv,
  program = process.execPath,
): Promise<{ ms: number; out: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(program, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve({ ms: performance.now() - t0, out }));
  });
}

interface Samples {
  tmux: number[];
  sh: number[];
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
  const out: Samples = { tmux: [], sh: [], bare: [] };
  try {
    const { session } = await c.request('session.create', {});
    await c.request('session.attach', { session_id: session.id });
    const env = hermesEnv(root);
    const first = await timed([HERMES_BIN, 'status', '--tmux'], env); // warm the file cache
    if (first.out !== '\n') throw new Error(`unexpected line ${JSON.stringify(first.out)}`);
    const sh = await timed([STATUS_LINE_SH], env, 'sh');
    if (sh.out !== '\n') throw new Error(`unexpected sh line ${JSON.stringify(sh.out)}`);
    for (let i = 0; i < RUNS; i++) {
      out.tmux.push((await timed([HERMES_BIN, 'status', '--tmux'], env)).ms);
      out.bare.push((await timed(['-e', '0'], env)).ms);
      out.sh.push((await timed([STATUS_LINE_SH], env, 'sh')).ms);
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
  { name: 'status.tmux.sh', unit: 'ms', goal: 50, run: async () => (await samples()).sh },
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
