/**
 * Helpers for cross-process tests of the tui-gateway daemon: temp roots, running `bin/hermes`,
 * spawning the test daemon (gateway-test-daemon.ts), finding daemon processes of a root, and
 * waiting for conditions with deadlines.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspectDiscovery, type DiscoveryInfo } from '@hermes/tui-gateway';

const here = dirname(fileURLToPath(import.meta.url));
/** Absolute path of `bin/hermes` (compiled: `npm run build` first). */
export const HERMES = resolve(here, '../../bin/hermes');
/** Absolute path of the test daemon script. */
export const TEST_DAEMON = join(here, 'gateway-test-daemon.ts');

/** A fresh temp root. */
export function tempRoot(prefix = 'hermes-gw-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Environment of a child working in `root` (keys that could leak in removed). */
export function childEnv(root: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HERMES_HOME: root, NO_COLOR: '1', ...extra };
  for (const k of ['OPENAI_API_KEY', 'OPENROUTER_API_KEY']) delete env[k];
  return env;
}

/** Result of a finished process. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `hermes ARGS` in `root` to completion (killed after `timeoutMs`). */
export function hermes(
  root: string,
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
  timeoutMs = 60_000,
): Promise<Run> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [HERMES, ...args], {
      env: childEnv(root, extraEnv),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

/** Polls `cond` every 20 ms. @throws Error naming `what` after `timeoutMs`. */
export async function waitFor<T>(
  cond: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The live daemon of `root` according to its discovery file. */
export function aliveDiscovery(root: string): DiscoveryInfo | undefined {
  const d = inspectDiscovery(join(root, 'tui-gateway.json'));
  return d.state === 'alive' ? d.info : undefined;
}

/** Pids of running `gateway run` processes whose HERMES_HOME is `root` (Linux /proc). */
export function daemonPids(root: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (
        !(cmd.includes('gateway') && cmd.includes('run')) &&
        !cmd.some((a) => a.endsWith('gateway-test-daemon.ts'))
      )
        continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (/\) [ZX] /.test(stat)) continue;
      const env = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      if (env.includes(`HERMES_HOME=${root}`)) pids.push(Number(name));
    } catch {
      /* exited meanwhile, or not ours */
    }
  }
  return pids;
}

/** Whether a pid runs (not a zombie). */
export function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Kills every daemon of `root` (SIGKILL) — test cleanup. */
export function killDaemons(root: string): void {
  for (const pid of daemonPids(root)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** A test daemon child process. */
export interface TestDaemon {
  child: ChildProcess;
  info: DiscoveryInfo;
  output(): string;
  exited: Promise<number | null>;
}

/** Spawns gateway-test-daemon.ts in `root` and waits until its discovery file is live. */
export async function spawnTestDaemon(root: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<TestDaemon> {
  const child = spawn(process.execPath, ['--conditions=@hermes/source', '--import', 'tsx', TEST_DAEMON], {
    env: childEnv(root, extraEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const info = await waitFor(() => {
    if (child.exitCode !== null) throw new Error(`test daemon exited with ${child.exitCode}:\n${out}`);
    const d = aliveDiscovery(root);
    return d?.pid === child.pid ? d : undefined;
  }, 'the test daemon to write its discovery file');
  return { child, info, output: () => out, exited };
}
