/**
 * When cron fires, behind a small interface.
 *
 * A `CronTrigger` decides *when*; what a firing does (claim, run, deliver, record) is fixed in
 * tick.ts / run.ts and reached only through `CronFireApi`, so no trigger re-implements agent
 * construction or delivery. The built-in trigger ticks every `cron.tick_interval` seconds (60).
 * An external one (a module named by `cron.trigger`, exporting `createCronTrigger(options)`) may
 * instead ask for due jobs and fire them one by one; `fireDue` claims each through a
 * compare-and-set on the store, so two schedulers never run one occurrence twice.
 *
 * `resolveCronTrigger` falls back to the built-in ticker when the module is not set, fails to
 * load, has no factory, throws, or reports `isAvailable() === false`: cron is never left without
 * a trigger. Optional members may be added to `CronTrigger` later; existing ones never change.
 */
import type { RunOutcome } from './run.js';

/** A due job as an external scheduler sees it. */
export interface DueJobRef {
  profile: string;
  id: string;
  /** Pass back unchanged to `fireDue` (the compare-and-set value). */
  next_run_at: string;
}

/** What a trigger may do. Implemented by the host (the daemon). */
export interface CronFireApi {
  /** One tick over every profile the host serves. Never rejects. */
  tick(): Promise<void>;
  /** Jobs due now, without claiming them. */
  dueJobs(): Promise<DueJobRef[]>;
  /** Claims (compare-and-set on `next_run_at`) and runs one job; null when the claim lost. */
  fireDue(profile: string, id: string, expectedNextRunAt: string): Promise<RunOutcome | null>;
  log(line: string): void;
}

/** A source of firings. */
export interface CronTrigger {
  readonly name: string;
  /** False when the trigger cannot work here (then the built-in one is used). */
  isAvailable?(): boolean | Promise<boolean>;
  /** Starts firing; returns once started. */
  start(api: CronFireApi): void | Promise<void>;
  /** Stops firing; running jobs are not waited for. */
  stop(): void | Promise<void>;
  /** Told after jobs changed (optional). */
  onJobsChanged?(profile: string): void;
}

/** What `createCronTrigger` of an external module receives. */
export interface CronTriggerFactoryOptions {
  intervalMs: number;
  log: (line: string) => void;
}

/**
 * The built-in ticker: a first tick right after `start`, then one every `intervalMs`. Ticks may
 * overlap when jobs run long (the tick lock and run markers keep that safe); the loop survives
 * any exception thrown by a tick.
 */
export class BuiltinTicker implements CronTrigger {
  readonly name = 'builtin';
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly intervalMs: number) {}

  start(api: CronFireApi): void {
    this.stopped = false;
    const fire = (): void => {
      if (this.stopped) return;
      Promise.resolve()
        .then(() => api.tick())
        .catch((err: unknown) =>
          api.log(`cron: tick threw (ticker keeps going): ${(err as Error)?.message ?? String(err)}`),
        );
    };
    setImmediate(fire);
    this.timer = setInterval(fire, this.intervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Loads a module by specifier (replaceable in tests). */
export type ModuleLoader = (specifier: string) => Promise<unknown>;

/**
 * Picks the trigger: the module named by `spec`, else the built-in ticker (see the module doc).
 * @param spec `cron.trigger` ('' = built-in); a path or package name exporting `createCronTrigger`.
 */
export async function resolveCronTrigger(
  spec: string,
  opts: CronTriggerFactoryOptions & { load?: ModuleLoader },
): Promise<CronTrigger> {
  const builtin = (): CronTrigger => new BuiltinTicker(opts.intervalMs);
  if (!spec.trim()) return builtin();
  const load = opts.load ?? ((s: string) => import(s));
  try {
    const mod = (await load(spec)) as { createCronTrigger?: (o: CronTriggerFactoryOptions) => unknown };
    if (typeof mod?.createCronTrigger !== 'function') throw new Error('it exports no createCronTrigger()');
    const trigger = (await mod.createCronTrigger({
      intervalMs: opts.intervalMs,
      log: opts.log,
    })) as CronTrigger;
    if (!trigger || typeof trigger.start !== 'function' || typeof trigger.stop !== 'function')
      throw new Error('createCronTrigger() did not return a trigger with start() and stop()');
    if (trigger.isAvailable && !(await trigger.isAvailable()))
      throw new Error('it reports itself unavailable');
    return trigger;
  } catch (err) {
    opts.log(`cron: trigger "${spec}" cannot be used (${(err as Error).message}); using the built-in ticker`);
    return builtin();
  }
}
