/**
 * Cron inside the daemon: the trigger (built-in
 * ticker every `cron.tick_interval` s, or the module named by `cron.trigger`, with fallback),
 * ticking every profile the daemon serves, `cron.changed` to every client, run-now, and the drain
 * at shutdown. What a firing does lives in core (core/src/cron/tick.ts and run.ts).
 *
 * - Each tick covers every served profile in parallel; each profile's tick is core's `tick()` in
 *   that profile's home (its own lock, jobs, heartbeat), so one profile's failure never stops
 *   another's.
 * - `cron.changed {profile, reason, job_ids}` (session `*`) goes out when jobs are claimed or a
 *   run is recorded, when a method here changes a job, and when another process changed the jobs
 *   file (its mtime moved since the last look; checked every tick).
 * - Shutdown: the trigger stops when `shutdownSignal` fires; `drain(timeoutMs)` waits for running
 *   jobs until the deadline, then aborts them (they are recorded as interrupted).
 */
import { statSync } from 'node:fs';
import { loadConfig, type HermesConfig } from '@hermes/core/config';
import {
  fireDue,
  runJobNow,
  tick,
  type TickOptions,
  type CronDelivery,
  type CronContext,
  CronStore,
  resolveCronTrigger,
  type CronFireApi,
  type CronTrigger,
  type DueJobRef,
  type CronJob,
} from '@hermes/core/cron';
import { HermesHome } from '@hermes/core/home';
import type { ModelClient } from '@hermes/core/model';
import { wireEvent, type WireEvent } from '@hermes/core/protocol';

/** Options of `CronService`. */
export interface CronServiceOptions {
  root: string;
  log: (line: string) => void;
  /** Sends an event to every client (`DaemonContext.broadcast`). */
  broadcast: (event: WireEvent) => void;
  /** Profiles ticked (read at every tick). */
  profiles: () => string[];
  /** Aborted when shutdown begins: the trigger stops. */
  shutdownSignal?: AbortSignal;
  /** Replaces model clients (tests). */
  modelClientFactory?: (home: HermesHome, model?: string) => ModelClient;
  /**
   * Delivery of a profile's results (default: core's `createCronDelivery`, which serves `local`
   * and files and reports platform targets as not available yet). The messaging layer passes
   * one built with its `PlatformSender`.
   */
  delivery?: (home: HermesHome) => CronDelivery;
  /** Overrides `cron.tick_interval` of the default profile, ms (tests). */
  intervalMs?: number;
  /** Overrides `cron.trigger` of the default profile. */
  trigger?: string;
  /** Watches every run's agent session (`RunDeps.watchRun`, the status feed), with its profile. */
  watchRun?: (profile: string, ...args: Parameters<NonNullable<TickOptions['watchRun']>>) => void;
}

/** The daemon's cron scheduler. */
export class CronService {
  private trigger: CronTrigger | undefined;
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly abort = new AbortController();
  private readonly mtimes = new Map<string, number>();
  private stopped = false;

  constructor(private readonly opts: CronServiceOptions) {
    opts.shutdownSignal?.addEventListener('abort', () => void this.stop(), { once: true });
  }

  /** The home of a profile. */
  home(profile: string): HermesHome {
    return new HermesHome(this.opts.root, profile);
  }

  /** A fresh cron context of a profile (config re-read: edits apply without a restart). */
  context(profile: string): CronContext & { config: HermesConfig } {
    const home = this.home(profile);
    return { home, config: loadConfig(home) };
  }

  /** Resolves the trigger and starts it. Never rejects (falls back to the built-in ticker). */
  async start(): Promise<void> {
    let config: HermesConfig | undefined;
    try {
      config = loadConfig(this.home('default'));
    } catch (err) {
      this.opts.log(
        `cron: config of the default profile is broken (${(err as Error).message}); using defaults`,
      );
    }
    const intervalMs = this.opts.intervalMs ?? (config?.cron.tick_interval ?? 60) * 1000;
    this.trigger = await resolveCronTrigger(this.opts.trigger ?? config?.cron.trigger ?? '', {
      intervalMs,
      log: this.opts.log,
    });
    if (this.stopped) return;
    await this.trigger.start(this.api());
    this.opts.log(`cron: ${this.trigger.name} trigger started (every ${intervalMs / 1000} s)`);
  }

  /** Stops the trigger (running jobs continue; see `drain`). */
  async stop(): Promise<void> {
    this.stopped = true;
    try {
      await this.trigger?.stop();
    } catch (err) {
      this.opts.log(`cron: stopping the trigger failed: ${(err as Error).message}`);
    }
  }

  /**
   * Waits for running ticks and runs until `timeoutMs` passes, then aborts what is left.
   * @returns true when everything finished in time.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    await this.stop();
    if (this.inflight.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), timeoutMs)));
    const all = Promise.allSettled([...this.inflight]).then(() => 'done' as const);
    const outcome = await Promise.race([all, deadline]);
    clearTimeout(timer);
    if (outcome === 'done') return true;
    this.opts.log(`cron: ${this.inflight.size} run(s) still going at the drain deadline: interrupting`);
    this.abort.abort(new Error('daemon shutting down'));
    await Promise.race([all, new Promise((r) => setTimeout(r, 5_000).unref())]);
    return false;
  }

  /** Sends `cron.changed` and remembers the file's mtime (our own change is not reported twice). */
  notify(profile: string, reason: string, jobIds: string[]): void {
    this.mtimes.set(profile, this.mtime(profile));
    const event = wireEvent(
      'cron.changed',
      '*',
      0,
      { profile, reason, job_ids: jobIds },
      Date.now(),
      this.opts.log,
    );
    try {
      this.opts.broadcast(event);
    } catch (err) {
      this.opts.log(`cron: broadcast failed: ${(err as Error).message}`);
    }
  }

  private mtime(profile: string): number {
    try {
      return statSync(this.home(profile).cronJobsFile).mtimeMs;
    } catch {
      return 0;
    }
  }

  /** Reports a jobs file changed by another process since the last look. */
  private checkFile(profile: string): void {
    const now = this.mtime(profile);
    const seen = this.mtimes.get(profile);
    this.mtimes.set(profile, now);
    if (seen !== undefined && seen !== now) this.notify(profile, 'file', []);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    const drop = (): void => void this.inflight.delete(p);
    p.then(drop, drop);
    return p;
  }

  /** Options for core's tick/run functions in one profile. */
  tickOptions(profile: string): TickOptions {
    const home = this.home(profile);
    const factory = this.opts.modelClientFactory;
    return {
      home,
      ticker: `tui-gateway (pid ${process.pid})`,
      log: this.opts.log,
      signal: this.abort.signal,
      onChanged: (reason, ids) => this.notify(profile, reason, ids),
      ...(factory ? { modelClient: (job: CronJob) => factory(home, job.model ?? undefined) } : {}),
      ...(this.opts.delivery ? { delivery: this.opts.delivery(home) } : {}),
      ...(this.opts.watchRun ? { watchRun: (...a) => this.opts.watchRun!(profile, ...a) } : {}),
    };
  }

  /** One tick over every served profile. Never rejects. */
  async tickAll(): Promise<void> {
    if (this.stopped) return;
    let profiles: string[];
    try {
      profiles = this.opts.profiles();
    } catch (err) {
      this.opts.log(`cron: cannot list profiles: ${(err as Error).message}`);
      return;
    }
    await this.track(
      Promise.all(
        profiles.map(async (profile) => {
          try {
            this.checkFile(profile);
            const r = await tick(this.tickOptions(profile));
            if (r.status === 'failed') this.opts.log(`cron: tick of profile ${profile} failed: ${r.error}`);
          } catch (err) {
            this.opts.log(`cron: tick of profile ${profile} threw: ${(err as Error).message}`);
          }
        }),
      ),
    );
  }

  /**
   * Runs a job now in the background. Resolves once it is claimed (so "already running" and
   * unknown ids reject here); the run's end shows as `cron.changed`.
   */
  async runNow(profile: string, ref: string): Promise<string> {
    let claimed!: (id: string) => void;
    const claim = new Promise<string>((r) => (claimed = r));
    const opts = this.tickOptions(profile);
    const run = this.track(
      runJobNow(
        {
          ...opts,
          onChanged: (reason, ids) => {
            if (reason === 'claimed') claimed(ids[0]!);
            opts.onChanged?.(reason, ids);
          },
        },
        ref,
      ),
    );
    run.catch((err: unknown) => this.opts.log(`cron: run-now of ${ref} failed: ${(err as Error).message}`));
    return Promise.race([claim, run.then((o) => o.jobId)]);
  }

  private api(): CronFireApi {
    return {
      tick: () => this.tickAll(),
      dueJobs: async () => {
        const now = Date.now();
        const out: DueJobRef[] = [];
        for (const profile of this.opts.profiles()) {
          for (const j of new CronStore(this.home(profile)).read()) {
            if (
              j.enabled &&
              j.state === 'scheduled' &&
              !j.running &&
              j.next_run_at &&
              Date.parse(j.next_run_at) <= now
            )
              out.push({ profile, id: j.id, next_run_at: j.next_run_at });
          }
        }
        return out;
      },
      fireDue: (profile, id, expected) => this.track(fireDue(this.tickOptions(profile), id, expected)),
      log: this.opts.log,
    };
  }
}
