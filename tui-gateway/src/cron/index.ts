/**
 * Plugging cron into the daemon (used by compose.ts): `startCron` builds the `CronService`,
 * registers the `cron.*` methods, starts the trigger and stops it on shutdown; `withCronSlash`
 * routes `/cron …` of `slash.exec` to cron and everything else to the session layer's handler.
 */
import type { CronDelivery } from '@hermes/core/cron';
import type { HermesHome } from '@hermes/core/home';
import type { ModelClient } from '@hermes/core/model';
import type { DaemonContext } from '../lifecycle/daemon.js';
import type { HandlerRegistry } from '../rpc/types.js';
import { withSlashRunner } from '../rpc/slash-runner.js';
import { registerCronHandlers, runCronSlash } from './cron-handlers.js';
import { CronService } from './cron-service.js';

export { CronService } from './cron-service.js';
import type { CronServiceOptions } from './cron-service.js';

/** Options of `startCron` (tests shorten the interval or replace model clients). */
export interface StartCronOptions {
  root: string;
  profiles: () => string[];
  modelClientFactory?: (home: HermesHome, model?: string) => ModelClient;
  intervalMs?: number;
  /** Delivery per profile (the messaging layer's platform sender); default local and files only. */
  delivery?: (home: HermesHome) => CronDelivery;
  /** Watches every run's agent session (the status feed). */
  watchRun?: CronServiceOptions['watchRun'];
}

/**
 * Creates the daemon's cron service, registers its methods and starts its trigger (in the
 * background: start-up never waits for, or fails because of, cron). The trigger stops when
 * `ctx.shutdownSignal` fires.
 */
export function startCron(rpc: HandlerRegistry, ctx: DaemonContext, opts: StartCronOptions): CronService {
  const service = new CronService({
    root: opts.root,
    profiles: opts.profiles,
    log: (l) => ctx.log.info(l),
    broadcast: (e) => ctx.broadcast(e),
    shutdownSignal: ctx.shutdownSignal,
    ...(opts.modelClientFactory ? { modelClientFactory: opts.modelClientFactory } : {}),
    ...(opts.intervalMs ? { intervalMs: opts.intervalMs } : {}),
    ...(opts.delivery ? { delivery: opts.delivery } : {}),
    ...(opts.watchRun ? { watchRun: opts.watchRun } : {}),
  });
  registerCronHandlers(rpc, service);
  void service.start().catch((err: unknown) => ctx.log.error('cron: start failed', err));
  return service;
}

/**
 * A registry that wraps the `slash.exec` handler so `/cron …` (the slash-command table's entries
 * with `daemon.runner: 'cron'`) reaches cron.
 */
export function withCronSlash(rpc: HandlerRegistry, service: CronService): HandlerRegistry {
  return withSlashRunner(rpc, 'cron', (args, _p, conn) => runCronSlash(service, conn.profile, args));
}
