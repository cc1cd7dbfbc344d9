/**
 * The shapes of the cron subsystem: schedules, jobs
 * as stored in `<home>/cron/jobs.json`, and the constants every part agrees on.
 *
 * Times are ISO 8601 strings in UTC (`2026-12-01T08:00:00.000Z`) in the file and epoch
 * milliseconds in memory; durations are milliseconds unless a name says otherwise.
 */

/** A parsed schedule, as stored in a job. */
export type Schedule =
  /** Once, at `run_at` (ISO, UTC). From `30m` / `2h` / `1d` or an ISO timestamp. */
  | { kind: 'once'; run_at: string }
  /** Repeatedly, every `minutes` minutes (`every 2h` → 120). */
  | { kind: 'interval'; minutes: number }
  /** A 5-field cron expression, evaluated in the configured `timezone`. */
  | { kind: 'cron'; expr: string };

/** `scheduled` waits for its next run; `paused` is kept but never fires; `completed` ran out; `error` cannot run. */
export type JobState = 'scheduled' | 'paused' | 'completed' | 'error';

/**
 * How a run ended: `ok` (a reply), `silent` (a silence marker), `error` (no reply), `blocked` (a
 * reply, but commands were blocked because nobody could approve them; `last_error` names them).
 */
export type RunStatus = 'ok' | 'silent' | 'error' | 'blocked';

/**
 * Where a job came from: the chat the `cronjob` tool was called in, or nothing (`hermes cron add`).
 * Messaging sessions fill `platform`/`chat_id`; TUI and CLI sessions only `session_id`.
 */
export interface JobOrigin {
  session_id?: string;
  profile?: string;
  /** `tui`, `cli`, `telegram` … (the session's source). */
  source?: string;
  platform?: string;
  chat_id?: string;
  thread_id?: string;
}

/** A claim on a job by the process running it (advance-before-run marker). */
export interface RunningMarker {
  pid: number;
  host: string;
  /** ISO time the run was claimed. */
  since: string;
  /** The scheduled time this run is for (ISO), or null for a run-now. */
  for_time: string | null;
}

/** One job of `jobs.json`. Field names follow the original (snake_case). */
export interface CronJob {
  /** 12 lowercase hex chars. */
  id: string;
  name: string;
  prompt: string;
  /** Skill names whose SKILL.md is loaded ahead of the prompt. */
  skills: string[];
  /** Model id for the run; null = the profile's default. */
  model: string | null;
  schedule: Schedule;
  /** The schedule as the user wrote it (`every 2h`, `0 9 * * *`). */
  schedule_display: string;
  /** `times` null = forever; `completed` counts finished runs. */
  repeat: { times: number | null; completed: number };
  enabled: boolean;
  state: JobState;
  paused_at: string | null;
  created_at: string;
  /** Next time the job fires (ISO), or null when it never will. */
  next_run_at: string | null;
  last_run_at: string | null;
  last_status: RunStatus | null;
  last_error: string | null;
  /** Why the last delivery failed (the run itself may have succeeded). */
  last_delivery_error: string | null;
  /** Delivery targets: `local`, `origin`, `file:/abs/path`, `<platform>` or `<platform>:<chat>`. */
  deliver: string[];
  origin: JobOrigin | null;
  /** Working directory of the run; jobs with one run one at a time. Null = `<home>/workspace`. */
  cwd: string | null;
  /** Set while a process runs the job; cleared when the run is recorded. */
  running: RunningMarker | null;
  /**
   * A run of a paused job was asked for (the `cronjob` tool's `run`, ISO time): the next tick runs
   * it once, clears this, and the job stays paused. Absent or null otherwise.
   */
  run_requested_at?: string | null;
}

/** The file `<home>/cron/jobs.json`. */
export interface JobsFile {
  version: 1;
  updated_at: string;
  jobs: CronJob[];
}

/** A one-shot may still run this long after its time (the original's ONESHOT_GRACE_SECONDS). */
export const ONESHOT_GRACE_MS = 2 * 60_000;
/** Grace of a recurring job: half its period, clamped to this minimum … */
export const MIN_GRACE_MS = 2 * 60_000;
/** … and this maximum. */
export const MAX_GRACE_MS = 2 * 60 * 60_000;

/** An ISO string for an epoch-ms time. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** Epoch ms of an ISO string; NaN when it does not parse. */
export const ms = (isoText: string | null | undefined): number => (isoText ? Date.parse(isoText) : NaN);
