/**
 * What `hermes gateway start | stop | status` do, from outside the daemon. `start`
 * spawns `hermes gateway run` detached with stdio to `<root>/logs/tui-gateway.log` and returns once the discovery file names a daemon that answers
 * `ping`; two starts at once end with one daemon (the loser's child exits EXIT_ALREADY_RUNNING and
 * its `start` reports the winner). `stop` sends SIGTERM and waits for the process to exit.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { HermesHome } from '@hermes/core/home';
import type { MethodResult } from '@hermes/core/protocol';
import { connect, isSameProcessAlive } from '@hermes/client';
import { DRAIN_MARGIN_MS } from './daemon.js';
import { inspectDiscovery, removeDiscovery, type DiscoveryInfo } from './discovery.js';
import { EXIT_ALREADY_RUNNING } from './systemd.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** True when the daemon of `info` accepts the token, `initialize` and `ping` within `timeoutMs`. */
export async function probeDaemon(info: DiscoveryInfo, timeoutMs = 2_000): Promise<boolean> {
  try {
    const c = await connect(
      { port: info.port, token: info.token, host: info.host },
      { name: 'hermes-cli', connectTimeoutMs: timeoutMs },
    );
    try {
      await c.request('ping', undefined, { timeoutMs });
      return true;
    } finally {
      await c.close();
    }
  } catch {
    return false;
  }
}

/** A running daemon found in the discovery file that answers; undefined otherwise. */
export async function findRunningDaemon(root: string, timeoutMs = 2_000): Promise<DiscoveryInfo | undefined> {
  const d = inspectDiscovery(new HermesHome(root).discoveryFile);
  if (d.state !== 'alive') return undefined;
  return (await probeDaemon(d.info, timeoutMs)) ? d.info : undefined;
}

/** Options of `startBackground`. */
export interface StartOptions {
  root: string;
  /** argv that runs `hermes gateway run --detached`, e.g. `[process.execPath, '/…/bin/hermes', 'gateway', 'run', '--detached']`. */
  command: string[];
  /** Environment of the child (HERMES_HOME is set to `root`). */
  env?: NodeJS.ProcessEnv;
  /** How long to wait for the daemon to answer, ms (default 20,000). */
  timeoutMs?: number;
}

/** Outcome of `startBackground`. */
export type StartOutcome =
  | { status: 'started'; info: DiscoveryInfo }
  /** A daemon was already running (or another start won the race). */
  | { status: 'running'; info: DiscoveryInfo };

/** The last `lines` lines of the daemon log, for error messages. */
export function logTail(root: string, lines = 15): string {
  try {
    const text = readFileSync(new HermesHome(root).daemonLogFile, 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts the daemon in the background unless one runs.
 * @throws Error when the child exits early or nothing answers within the timeout (with the log tail).
 */
export async function startBackground(opts: StartOptions): Promise<StartOutcome> {
  const home = new HermesHome(opts.root);
  const running = await findRunningDaemon(opts.root);
  if (running) return { status: 'running', info: running };
  mkdirSync(home.logsDir, { recursive: true });
  const fd = openSync(home.daemonLogFile, 'a', 0o600);
  const [exe, ...args] = opts.command;
  const child = spawn(exe!, args, {
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...(opts.env ?? process.env), HERMES_HOME: home.root },
  });
  closeSync(fd);
  let exitCode: number | null | undefined;
  child.on('exit', (code, signal) => {
    exitCode = code ?? (signal ? 128 : 1);
  });
  child.on('error', () => {
    exitCode = 127;
  });
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  try {
    while (Date.now() < deadline) {
      const d = inspectDiscovery(home.discoveryFile);
      if (d.state === 'alive' && (await probeDaemon(d.info, 1_000))) {
        return { status: d.info.pid === child.pid ? 'started' : 'running', info: d.info };
      }
      if (exitCode !== undefined && exitCode !== EXIT_ALREADY_RUNNING) {
        throw new Error(`daemon exited with code ${exitCode} during start-up; log:\n${logTail(opts.root)}`);
      }
      await sleep(50);
    }
    throw new Error(
      `daemon did not answer within ${opts.timeoutMs ?? 20_000} ms; log:\n${logTail(opts.root)}`,
    );
  } finally {
    child.unref();
  }
}

/** Options of `stopDaemon`. */
export interface StopOptions {
  root: string;
  /** How long to wait for the exit, ms (default: drain timeout + 5 s margin + 5 s). */
  timeoutMs: number;
  /** SIGKILL when the daemon has not exited in time. */
  force?: boolean;
}

/** Outcome of `stopDaemon`. */
export type StopOutcome =
  | { status: 'stopped'; pid: number; elapsedMs: number }
  | { status: 'killed'; pid: number; elapsedMs: number }
  | { status: 'not_running'; staleRemoved: boolean }
  | { status: 'timeout'; pid: number; elapsedMs: number };

/** Default wait of `stop`: drain timeout + DRAIN_MARGIN_MS + 5 s for closing and exiting, ms. */
export function stopWaitMs(drainTimeoutS: number): number {
  return drainTimeoutS * 1000 + DRAIN_MARGIN_MS + 5_000;
}

/** Sends SIGTERM to the daemon of `root` and waits for it to exit. */
export async function stopDaemon(opts: StopOptions): Promise<StopOutcome> {
  const file = new HermesHome(opts.root).discoveryFile;
  const d = inspectDiscovery(file);
  if (d.state === 'absent') return { status: 'not_running', staleRemoved: false };
  if (d.state !== 'alive') return { status: 'not_running', staleRemoved: removeDiscovery(file) };
  const { info } = d;
  const started = Date.now();
  try {
    process.kill(info.pid, 'SIGTERM');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH')
      return { status: 'not_running', staleRemoved: removeDiscovery(file) };
    throw new Error(`cannot signal daemon pid ${info.pid}: ${(err as Error).message}`, { cause: err });
  }
  const deadline = started + opts.timeoutMs;
  while (Date.now() < deadline) {
    if (!isSameProcessAlive(info))
      return { status: 'stopped', pid: info.pid, elapsedMs: Date.now() - started };
    await sleep(50);
  }
  if (opts.force) {
    try {
      process.kill(info.pid, 'SIGKILL');
    } catch {
      /* exited meanwhile */
    }
    const killDeadline = Date.now() + 5_000;
    while (isSameProcessAlive(info) && Date.now() < killDeadline) await sleep(50);
    removeDiscovery(file, info.epoch);
    return { status: 'killed', pid: info.pid, elapsedMs: Date.now() - started };
  }
  return { status: 'timeout', pid: info.pid, elapsedMs: Date.now() - started };
}

/** Outcome of `queryStatus`. */
export type StatusOutcome =
  | { running: true; status: MethodResult<'gateway.status'> }
  | { running: false; reason: 'absent' | 'stale' | 'invalid' | 'unreachable'; detail?: string; pid?: number };

/** Asks the daemon of `root` for `gateway.status`. */
export async function queryStatus(root: string, timeoutMs = 3_000): Promise<StatusOutcome> {
  const d = inspectDiscovery(new HermesHome(root).discoveryFile);
  if (d.state === 'absent') return { running: false, reason: 'absent' };
  if (d.state === 'invalid') return { running: false, reason: 'invalid', detail: d.error };
  if (d.state === 'stale') return { running: false, reason: 'stale', pid: d.info.pid };
  try {
    const c = await connect({ root }, { name: 'hermes-cli', connectTimeoutMs: timeoutMs });
    try {
      return { running: true, status: await c.request('gateway.status', undefined, { timeoutMs }) };
    } finally {
      await c.close();
    }
  } catch (err) {
    return { running: false, reason: 'unreachable', detail: (err as Error).message, pid: d.info.pid };
  }
}
