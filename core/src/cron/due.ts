/**
 * Deciding what fires (advance `next_run_at` first, then run). Pure
 * functions over the job list, run inside the store's lock: they change jobs in place and say
 * what they did. Nothing here runs a job.
 *
 * A paused job with `run_requested_at` (the `cronjob` tool's `run`) is claimed once, off its
 * schedule (its `next_run_at` is kept), and stays paused.
 *
 * For every enabled, scheduled job whose `next_run_at` has come:
 * - a run marker of a process that no longer exists (killed during a run) is cleared and the run
 *   recorded as interrupted (only markers of this host can be checked; another host's marker is
 *   trusted until that host clears it); a marker of a live process means the job is still running: this
 *   occurrence is skipped (and the next time advanced, so runs never pile up);
 * - a one-shot due less than 2 minutes ago fires; later than that it is not run (state `error`,
 *   `last_status` `error`, reason "missed");
 * - a recurring job fires once however late it is; when it is later than its grace (half its
 *   period, clamped 2 min … 2 h) the occurrences it missed are skipped — its next time is the
 *   next future one (fast-forward, reported) — so a job whose runs overrun its interval, or that
 *   waited out a daemon restart, runs once instead of being skipped tick after tick;
 * - a job that fires is claimed before anything runs: `next_run_at` moves to the next future time
 *   (null for a one-shot) and `running` is set. The caller saves this before running, so a crash
 *   during the run never fires the same occurrence again (at most once).
 * - an enabled, scheduled job whose `next_run_at` is missing or unreadable (a hand edit) gets one
 *   again (reported as recovered): a one-shot its own time while that is within its 2-minute
 *   grace (so it fires now), a recurring job its first run from now; a one-shot whose time passed
 *   longer ago stays without one (and an unreadable value is cleared).
 * Only due jobs cost more than a timestamp comparison (the cron expression is parsed for them
 * alone), so deciding over 10,000 jobs stays cheap.
 */
import { hostname } from 'node:os';
import { firstRunTime, graceMs, nextRunTime, CronScheduleError } from './schedule.js';
import { ONESHOT_GRACE_MS, iso, ms, type CronJob, type RunningMarker } from './types.js';

/** Who claims: this process by default. */
export interface Claimant {
  pid: number;
  host: string;
}

/** This process as a claimant. */
export const thisProcess = (): Claimant => ({ pid: process.pid, host: hostname() });

/** True when a process with this pid exists on this machine. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const RUNNING_SET = Buffer.from('"running":{');
const RUN_REQUESTED = Buffer.from('"run_requested_at":"');
const NEXT_KEY = Buffer.from('"next_run_at":"');
const NEXT_NULL = Buffer.from('"next_run_at":null');
const SCHEDULED = Buffer.from('"state":"scheduled"');
const ENABLED = Buffer.from('"enabled":true');

/**
 * Picks the job lines of a raw jobs file that may need the tick (the store parses only these):
 * lines with a run marker or a requested run, lines whose `next_run_at` has come, and lines of an
 * enabled, scheduled job without a `next_run_at` (to recover it). Bytes are compared without
 * decoding: a JSON string value escapes its quotes, so these sequences can only be keys, and a
 * canonical ISO time (`2026-11-29T10:00:00.000Z`, what we write) compares like its instant. Other
 * time forms fall back to `Date.parse`. Errs towards picking: `decideDue` makes the real decision.
 * @param ranges `[start, end)` of each job line in `buf`.
 * @returns ascending line indices.
 */
export function selectDueLines(
  buf: Buffer,
  ranges: ReadonlyArray<readonly [number, number]>,
  now: number,
): number[] {
  const picked = new Set<number>();
  const lineOf = (pos: number): number => {
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ranges[mid]![0] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  for (let p = buf.indexOf(RUNNING_SET); p >= 0; p = buf.indexOf(RUNNING_SET, p + 1)) picked.add(lineOf(p));
  for (let p = buf.indexOf(RUN_REQUESTED); p >= 0; p = buf.indexOf(RUN_REQUESTED, p + 1))
    picked.add(lineOf(p));
  const nowIso = Buffer.from(new Date(now).toISOString(), 'latin1');
  for (let i = 0; i < ranges.length; i++) {
    const [a, b] = ranges[i]!;
    const k = buf.indexOf(NEXT_KEY, a);
    if (k < 0 || k >= b) {
      const within = (key: Buffer): boolean => {
        const at = buf.indexOf(key, a);
        return at >= 0 && at < b;
      };
      if (within(NEXT_NULL) && within(SCHEDULED) && within(ENABLED)) picked.add(i); // to recover
      continue;
    }
    const s = k + NEXT_KEY.length;
    const canonical = buf[s + 23] === 0x5a && buf[s + 24] === 0x22; // 24 chars ending in Z"
    const due = canonical
      ? buf.compare(nowIso, 0, 24, s, s + 24) <= 0
      : !(Date.parse(buf.toString('latin1', s, buf.indexOf(0x22, s))) > now);
    if (due) picked.add(i);
  }
  return [...picked].sort((x, y) => x - y);
}

/** Options of `decideDue`. */
export interface DecideOptions {
  now: number;
  timeZone: string;
  claimant?: Claimant;
  /** Whether a run marker's process still exists (default: `pidAlive` for markers of this host). */
  isAlive?: (marker: RunningMarker) => boolean;
}

/** What `decideDue` did. Every job listed here was changed in place. */
export interface DueDecision {
  /** Claimed jobs to run now (snapshots taken after the claim). */
  due: CronJob[];
  /** Recurring jobs later than their grace: run once (they are in `due`), missed times skipped. */
  fastForwarded: Array<{ id: string; missed: string; next: string | null }>;
  /** One-shots whose time passed more than 2 minutes ago. */
  missed: string[];
  /** Jobs whose run marker belonged to a dead process. */
  interrupted: string[];
  /** Due jobs skipped because a live process still runs them. */
  skippedRunning: string[];
  /** Jobs put into state `error` because their schedule cannot be computed. */
  broken: string[];
  /** Enabled, scheduled jobs whose missing or unreadable `next_run_at` was computed again. */
  recovered: string[];
  /** True when any job changed (the store must be saved). */
  changed: boolean;
}

const defaultAlive =
  (self: Claimant) =>
  (m: RunningMarker): boolean =>
    m.host !== self.host ? true : pidAlive(m.pid);

/** Records a run that died with its process. */
export function markInterrupted(job: CronJob, now: number): void {
  const marker = job.running;
  job.running = null;
  job.last_status = 'error';
  job.last_run_at = marker?.since ?? iso(now);
  job.last_error = `interrupted: the process running it (pid ${marker?.pid ?? '?'}) exited during the run`;
  if (job.schedule.kind === 'once') {
    job.enabled = false;
    job.state = 'error';
  }
}

/**
 * Claims a job for one run: advances `next_run_at` past `now` (null for a one-shot) and sets the
 * run marker. `forTime` is the scheduled time being served (null for a run-now, which keeps the
 * schedule as it is).
 * @throws CronScheduleError when the next time cannot be computed.
 */
export function claimJob(
  job: CronJob,
  now: number,
  timeZone: string,
  forTime: number | null,
  who: Claimant,
): void {
  if (forTime !== null) {
    const next = nextRunTime(job.schedule, forTime, now, timeZone);
    job.next_run_at = next === null ? null : iso(next);
  }
  job.running = {
    pid: who.pid,
    host: who.host,
    since: iso(now),
    for_time: forTime === null ? null : iso(forTime),
  };
}

/**
 * Decides which jobs fire at `now` and claims them (see the module doc). Changes `jobs` in place.
 */
export function decideDue(jobs: CronJob[], opts: DecideOptions): DueDecision {
  const { now, timeZone } = opts;
  const who = opts.claimant ?? thisProcess();
  const alive = opts.isAlive ?? defaultAlive(who);
  const out: DueDecision = {
    due: [],
    fastForwarded: [],
    missed: [],
    interrupted: [],
    skippedRunning: [],
    broken: [],
    recovered: [],
    changed: false,
  };
  for (const job of jobs) {
    if (job.running && !alive(job.running)) {
      markInterrupted(job, now);
      out.interrupted.push(job.id);
      out.changed = true;
    }
    if (job.state === 'paused' && job.run_requested_at) {
      // a run asked for while paused: once, off the schedule; the job stays paused
      if (job.running) continue;
      claimJob(job, now, timeZone, null, who);
      job.run_requested_at = null;
      out.due.push(structuredClone(job));
      out.changed = true;
      continue;
    }
    if (job.enabled && job.state === 'scheduled' && !job.running && !Number.isFinite(ms(job.next_run_at))) {
      const before = job.next_run_at;
      try {
        recoverNextRun(job, now, timeZone);
        if (job.next_run_at !== before) out.changed = true;
        if (job.next_run_at) out.recovered.push(job.id);
      } catch (err) {
        if (!(err instanceof CronScheduleError)) throw err;
        markBroken(job, err);
        out.broken.push(job.id);
        out.changed = true;
        continue;
      }
    }
    if (!job.enabled || job.state !== 'scheduled' || !job.next_run_at) continue;
    const at = ms(job.next_run_at);
    if (!(at <= now)) continue; // not due (or an unreadable time: left for `hermes cron edit`)
    try {
      if (job.running) {
        out.skippedRunning.push(job.id);
        const next = nextRunTime(job.schedule, at, now, timeZone);
        job.next_run_at = next === null ? null : iso(next);
        out.changed = true;
        continue;
      }
      if (!job.prompt.trim() && job.skills.length === 0) {
        // a partial record (hand edit, older version): nothing to run
        markBroken(job, new Error('the job has no prompt; give it one with: hermes cron edit ID --prompt …'));
        out.broken.push(job.id);
        out.changed = true;
        continue;
      }
      const late = now - at;
      if (job.schedule.kind === 'once') {
        if (late > ONESHOT_GRACE_MS) {
          job.enabled = false;
          job.state = 'error';
          job.next_run_at = null;
          job.last_status = 'error';
          job.last_error = `missed: its time ${iso(at)} passed more than 2 minutes before a tick could run it`;
          out.missed.push(job.id);
          out.changed = true;
          continue;
        }
      }
      const pastGrace =
        job.schedule.kind !== 'once' && late > ONESHOT_GRACE_MS && late > graceMs(job.schedule, at, timeZone);
      claimJob(job, now, timeZone, at, who); // the next time is the next future one: missed ones are skipped
      if (pastGrace) out.fastForwarded.push({ id: job.id, missed: iso(at), next: job.next_run_at });
      out.due.push(structuredClone(job));
      out.changed = true;
    } catch (err) {
      if (!(err instanceof CronScheduleError)) throw err;
      markBroken(job, err);
      out.broken.push(job.id);
      out.changed = true;
    }
  }
  return out;
}

/** Puts a job whose schedule cannot be computed into state `error`. */
function markBroken(job: CronJob, err: Error): void {
  job.enabled = false;
  job.state = 'error';
  job.last_status = 'error';
  job.last_error = err.message;
}

/**
 * Gives an enabled, scheduled job without a readable `next_run_at` one again, or null when a
 * one-shot's time is out of reach (see the module doc). @throws CronScheduleError for a broken schedule.
 */
function recoverNextRun(job: CronJob, now: number, timeZone: string): void {
  const next = firstRunTime(job.schedule, now, timeZone);
  job.next_run_at = next === null ? null : iso(next);
}
