/**
 * A real `hermes gateway` daemon process for the attach and memory benchmarks: a temp root whose
 * config points at the scripted model server, `hermes gateway start` (the compiled bin/hermes;
 * `npm run bench` builds first), a client in this process, `hermes gateway stop` at the end.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectDiscovery } from '@hermes/tui-gateway';
import { connect, type DaemonClient } from '@hermes/client';
import { HERMES_BIN } from '../../tests/support/hermes-cli.js';

/** A started daemon and how to reach it. */
export interface BenchDaemon {
  root: string;
  pid: number;
  connect(name: string): Promise<DaemonClient>;
  /** Resident set size of the daemon process, MB (VmRSS). */
  rssMb(): number;
  stop(): void;
}

/** Creates a temp root (config pointing at `modelUrl`); `prepare` may fill its state.db first. */
export function benchRoot(modelUrl: string): string {
  const root = mkdtempSync(join(tmpdir(), 'hermes-bench-gw-'));
  writeFileSync(
    join(root, 'config.yaml'),
    `model:\n  provider: custom\n  base_url: ${modelUrl}\n  default: fake\n`,
  );
  return root;
}

function hermes(root: string, args: string[]): string {
  const r = spawnSync(process.execPath, [HERMES_BIN, ...args], {
    env: { ...process.env, HERMES_HOME: root, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`hermes ${args.join(' ')} failed: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Starts `hermes gateway` in `root`. */
export function startBenchDaemonProcess(root: string): BenchDaemon {
  hermes(root, ['gateway', 'start']);
  const d = inspectDiscovery(join(root, 'tui-gateway.json'));
  if (d.state !== 'alive') throw new Error(`daemon not running in ${root}: ${d.state}`);
  const pid = d.info.pid;
  return {
    root,
    pid,
    connect: (name) => connect({ root }, { name, capabilities: { approvals: false } }),
    rssMb: () => {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return Number(m?.[1] ?? NaN) / 1024;
    },
    stop: () => {
      try {
        hermes(root, ['gateway', 'stop']);
      } finally {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* stopped */
        }
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
