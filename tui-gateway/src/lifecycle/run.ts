/**
 * `hermes gateway run`: the daemon in the foreground until SIGTERM / SIGINT / SIGHUP, which start
 * the graceful stop of daemon.ts; a second signal during the drain exits at once (the discovery
 * and lock files it leaves are detected as stale by the next start).
 */
import { HermesHome } from '@hermes/core/home';
import { loadConfig } from '@hermes/core/config';
import { defaultDaemonHooks, type DaemonHooks } from '../compose.js';
import { startDaemon, type DaemonOptions } from './daemon.js';
import { inspectDiscovery } from './discovery.js';
import { DaemonLockedError } from './lock.js';
import { EXIT_ALREADY_RUNNING } from './systemd.js';

/** Options of `runGateway`. */
export interface RunOptions {
  root: string;
  version: string;
  /** Started by `hermes gateway start`: stderr already is the log file, so log there only once. */
  detached?: boolean;
  /** Hooks of the layers above (default: `defaultDaemonHooks(root)` from compose.ts). */
  hooks?: DaemonHooks;
  /** Overrides for tests (drain timeout, intervals …). */
  overrides?: Partial<DaemonOptions>;
}

/** Reads `gateway.drain_timeout` (seconds) of the root's config; 30 with a warning when broken. */
export function readDrainTimeoutS(root: string): number {
  try {
    return loadConfig(new HermesHome(root)).gateway.drain_timeout;
  } catch (err) {
    process.stderr.write(`hermes gateway: ${(err as Error).message}; using gateway.drain_timeout = 30\n`);
    return 30;
  }
}

/**
 * Runs the daemon until it is stopped.
 * @returns the process exit code: 0 after a graceful stop, EXIT_ALREADY_RUNNING (3) when another
 *   daemon holds the root, 1 when start-up fails.
 */
export async function runGateway(opts: RunOptions): Promise<number> {
  const drainTimeoutMs = readDrainTimeoutS(opts.root) * 1000;
  const hooks = opts.hooks ?? (await defaultDaemonHooks(opts.root));
  let handle;
  try {
    handle = await startDaemon({
      ...hooks,
      root: opts.root,
      version: opts.version,
      drainTimeoutMs,
      logStderr: !opts.detached,
      ...opts.overrides,
    });
  } catch (err) {
    if (err instanceof DaemonLockedError) {
      const d = inspectDiscovery(new HermesHome(opts.root).discoveryFile);
      const port = d.state === 'alive' ? `, port ${d.info.port}` : '';
      process.stderr.write(
        `hermes gateway: already running for ${opts.root} (pid ${err.owner.pid}${port})\n`,
      );
      return EXIT_ALREADY_RUNNING;
    }
    process.stderr.write(`hermes gateway: start-up failed: ${(err as Error).message}\n`);
    return 1;
  }
  const { log } = handle;
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signals += 1;
    if (signals > 1) {
      log.warn(`${signal} again during shutdown: exiting now`);
      process.exit(1);
    }
    void handle.close(signal);
  };
  const onUncaught = (err: unknown): void => log.error('uncaught exception (daemon keeps serving)', err);
  const onRejection = (err: unknown): void => log.error('unhandled rejection (daemon keeps serving)', err);
  const sigs: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  for (const s of sigs) process.on(s, onSignal);
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onRejection);
  await handle.closed;
  for (const s of sigs) process.off(s, onSignal);
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onRejection);
  return 0;
}
