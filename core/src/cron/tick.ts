/**
 * The tick: one pass of the scheduler over a profile's jobs.
 *
 * 1. Take `<home>/cron/tick.lock` without waiting (proper-lockfile, `retries: 0`). Another tick
 *    holds it (the daemon's ticker, `hermes cron tick`, an external trigger) → return `locked` at
 *    once: only one tick decides at a time, across processes.
 * 2. Record the heartbeat.
 * 3. Under the jobs-store lock, decide what is due and claim it (`decideDue`: next time advanced,
 *    run marker set) and save — all before any job runs, so a crash during a run never fires the
 *    same occurrence again (at most once). Release the tick lock.
 * 4. Run the claimed jobs (`runClaimedJob`): jobs with their own working directory one after
 *    another, the others in parallel.
 * 5. Record a success mark only when nothing threw; any exception (a corrupt jobs file, a store
 *    that cannot be written, a bug) is caught, recorded in the heartbeat and returned. A tick
 *    never throws.
 */
import lockfile from 'proper-lockfile';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config/config-file.js';
import type { HermesConfig } from '../config/schema.js';
import type { HermesHome } from '../home/home.js';
import {
  claimJob,
  decideDue,
  selectDueLines,
  pidAlive,
  thisProcess,
  type Claimant,
  type DueDecision,
} from './due.js';
import { CronJobError, findJob } from './jobs.js';
import { runClaimedJob, type RunDeps, type RunOutcome } from './run.js';
import { recordHeartbeat, recordTickEnd } from './status.js';
import { CronStore } from './store.js';
import { resolveTimeZone } from './timezone.js';
import { ms, type CronJob, type RunningMarker } from './types.js';

/** Options of a tick. */
export interface TickOptions extends RunDeps {
  /** Named in the heartbeat (`tui-gateway (pid N)`, `hermes cron tick (pid N)`). */
  ticker?: string;
  claimant?: Claimant;
  /** Whether a run marker's process is alive (tests). */
  isAlive?: (m: RunningMarker) => boolean;
  /** Jobs changed (claims saved, a run recorded). Must not throw. */
  onChanged?: (reason: string, jobIds: string[]) => void;
  /** Called after the claims are saved and before any job runs (tests, logs). */
  onClaimed?: (jobs: CronJob[]) => void;
}

/** How a tick went. */
export interface TickResult {
  /** `locked`: another tick was deciding; nothing was done. */
  status: 'done' | 'locked' | 'failed';
  decision?: Omit<DueDecision, 'due'> & { due: string[] };
  outcomes: RunOutcome[];
  /** What failed (status `failed`, or a clean decision followed by a failing run). */
  error?: string;
}

/** The tick lock's target (`<home>/cron/tick`, lock folder `tick.lock`). */
export function tickLockTarget(home: HermesHome): string {
  return join(home.cronDir, 'tick');
}

/** Takes the tick lock without waiting; undefined when another tick holds it. */
export async function tryTickLock(home: HermesHome): Promise<(() => Promise<void>) | undefined> {
  mkdirSync(home.cronDir, { recursive: true });
  try {
    return await lockfile.lock(tickLockTarget(home), {
      realpath: false,
      retries: 0,
      stale: 10_000,
      onCompromised: () => {
        /* a stalled holder lost the lock: the store lock still protects the claims */
      },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw err;
  }
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

function notify(opts: TickOptions, reason: string, ids: string[]): void {
  if (ids.length === 0) return;
  try {
    opts.onChanged?.(reason, ids);
  } catch {
    /* listeners never break the tick */
  }
}

/**
 * Runs claimed jobs: jobs with a cwd one at a time, the others in parallel. Collects outcomes and
 * the errors of runs that threw (after trying to clear their run markers).
 */
export async function runClaimed(
  opts: TickOptions,
  jobs: CronJob[],
): Promise<{ outcomes: RunOutcome[]; errors: string[] }> {
  const outcomes: RunOutcome[] = [];
  const errors: string[] = [];
  const store = opts.store ?? new CronStore(opts.home, opts.now);
  const runOne = async (job: CronJob): Promise<void> => {
    try {
      const outcome = await runClaimedJob({ ...opts, store }, job);
      outcomes.push(outcome);
      notify(opts, outcome.completed ? 'completed' : 'ran', [job.id]);
    } catch (err) {
      errors.push(`job ${job.id}: ${message(err)}`);
      opts.log?.(`cron: job ${job.id} failed outside the run: ${message(err)}`);
      await store
        .mutate((all, tx) => {
          const stored = all.find((j) => j.id === job.id);
          if (!stored) return tx.unchanged();
          stored.running = null;
          stored.last_status = 'error';
          stored.last_error = message(err);
        })
        .catch(() => undefined);
    }
  };
  const withCwd = jobs.filter((j) => j.cwd);
  const parallel = jobs.filter((j) => !j.cwd);
  const serial = (async () => {
    for (const j of withCwd) await runOne(j);
  })();
  await Promise.all([serial, ...parallel.map(runOne)]);
  return { outcomes, errors };
}

/**
 * Claims what is due under the store lock (no tick lock). Exposed for the bench and tests.
 * @throws CronStoreCorruptError and friends.
 */
export async function claimDue(opts: TickOptions, config: HermesConfig): Promise<DueDecision> {
  const store = opts.store ?? new CronStore(opts.home, opts.now);
  const now = (opts.now ?? Date.now)();
  const timeZone = resolveTimeZone(config.timezone);
  return store.mutateSelected(
    (buf, ranges) => selectDueLines(buf, ranges, now),
    (jobs, tx) => {
      const d = decideDue(jobs, {
        now,
        timeZone,
        ...(opts.claimant ? { claimant: opts.claimant } : {}),
        ...(opts.isAlive ? { isAlive: opts.isAlive } : {}),
      });
      if (!d.changed) tx.unchanged();
      return d;
    },
  );
}

/** One tick (see the module doc). Never throws. */
export async function tick(opts: TickOptions): Promise<TickResult> {
  const now = opts.now ?? Date.now;
  let release: (() => Promise<void>) | undefined;
  try {
    release = await tryTickLock(opts.home);
  } catch (err) {
    return { status: 'failed', outcomes: [], error: `cannot take the tick lock: ${message(err)}` };
  }
  if (!release) return { status: 'locked', outcomes: [] };
  recordHeartbeat(opts.home, now(), opts.ticker ?? `pid ${process.pid}`);
  let decision: DueDecision;
  let config: HermesConfig;
  try {
    config = opts.config ?? loadConfig(opts.home);
    decision = await claimDue(opts, config);
  } catch (err) {
    recordTickEnd(opts.home, now(), message(err));
    opts.log?.(`cron: tick failed: ${message(err)}`);
    return { status: 'failed', outcomes: [], error: message(err) };
  } finally {
    await release().catch(() => undefined);
  }
  const { due, ...rest } = decision;
  const summary = { ...rest, due: due.map((j) => j.id) };
  notify(opts, 'claimed', [
    ...summary.due,
    ...rest.fastForwarded.map((f) => f.id),
    ...rest.missed,
    ...rest.interrupted,
    ...rest.skippedRunning,
    ...rest.broken,
    ...rest.recovered,
  ]);
  for (const f of rest.fastForwarded)
    opts.log?.(
      `cron: job ${f.id} missed ${f.missed} by more than its grace: runs once now; next run ${f.next ?? 'none'}`,
    );
  for (const id of rest.skippedRunning) opts.log?.(`cron: job ${id} is still running; this run is skipped`);
  for (const id of rest.interrupted) opts.log?.(`cron: job ${id} was interrupted (its process exited)`);
  for (const id of rest.recovered)
    opts.log?.(`cron: job ${id} had no readable next run time; it was computed again`);
  try {
    opts.onClaimed?.(due);
  } catch {
    /* observers never break the tick */
  }
  const { outcomes, errors } = await runClaimed({ ...opts, config }, due);
  const error = errors.length ? errors.join('; ') : undefined;
  recordTickEnd(opts.home, now(), error);
  return { status: 'done', decision: summary, outcomes, ...(error ? { error } : {}) };
}

/**
 * Runs one job now, outside its schedule (`hermes cron run`, the daemon's `cron.run`): claimed
 * under the store lock (refused while a live process runs it), run and recorded like a scheduled
 * run; its next scheduled time is not changed.
 * @throws CronJobError for an unknown, completed or already running job.
 */
export async function runJobNow(opts: TickOptions, ref: string): Promise<RunOutcome> {
  const now = (opts.now ?? Date.now)();
  const config = opts.config ?? loadConfig(opts.home);
  const store = opts.store ?? new CronStore(opts.home, opts.now);
  const who = opts.claimant ?? thisProcess();
  const alive = opts.isAlive ?? ((m: RunningMarker) => m.host !== who.host || pidAlive(m.pid));
  const job = await store.mutate(
    (jobs) => {
      const j = findJob(jobs, ref);
      if (j.running && alive(j.running))
        throw new CronJobError(
          `job ${j.id} is already running (pid ${j.running.pid}, since ${j.running.since})`,
        );
      if (j.state === 'completed')
        throw new CronJobError(`job ${j.id} has completed; edit its schedule to run it again`);
      claimJob(j, now, resolveTimeZone(config.timezone), null, who);
      return structuredClone(j);
    },
    { repairCorrupt: true },
  );
  notify(opts, 'claimed', [job.id]);
  const outcome = await runClaimedJob({ ...opts, config, store }, job);
  notify(opts, outcome.completed ? 'completed' : 'ran', [job.id]);
  return outcome;
}

/**
 * Compare-and-set claim for external triggers (the original's `claim_job_for_fire`): claims job
 * `id` only if its `next_run_at` still equals `expectedNextRunAt`, it is due at `now`, enabled and
 * not running. Two triggers racing for one occurrence: exactly one gets the job.
 * @returns the claimed job, or null when the claim lost (already claimed, changed, not due).
 */
export async function claimJobForFire(
  opts: TickOptions,
  id: string,
  expectedNextRunAt: string,
): Promise<CronJob | null> {
  const now = (opts.now ?? Date.now)();
  const config = opts.config ?? loadConfig(opts.home);
  const store = opts.store ?? new CronStore(opts.home, opts.now);
  const who = opts.claimant ?? thisProcess();
  return store.mutate((jobs, tx) => {
    const j = jobs.find((x) => x.id === id);
    const at = ms(expectedNextRunAt);
    if (
      !j ||
      !j.enabled ||
      j.state !== 'scheduled' ||
      j.running ||
      j.next_run_at !== expectedNextRunAt ||
      !(at <= now)
    ) {
      tx.unchanged();
      return null;
    }
    claimJob(j, now, resolveTimeZone(config.timezone), at, who);
    return structuredClone(j);
  });
}

/**
 * Claims and runs one due job for an external trigger (the original's `fire_due`).
 * @returns the outcome, or null when the claim lost.
 */
export async function fireDue(
  opts: TickOptions,
  id: string,
  expectedNextRunAt: string,
): Promise<RunOutcome | null> {
  const job = await claimJobForFire(opts, id, expectedNextRunAt);
  if (!job) return null;
  notify(opts, 'claimed', [job.id]);
  const { outcomes, errors } = await runClaimed(opts, [job]);
  if (errors.length) throw new Error(errors.join('; '));
  return outcomes[0] ?? null;
}
