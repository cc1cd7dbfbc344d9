/**
 * Creating and changing jobs: the one
 * place the CLI, the `cronjob` tool, the daemon's methods and suggestions go through, so every
 * prompt is scanned and every schedule validated the same way.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { HermesConfig } from '../config/schema.js';
import type { HermesHome } from '../home/home.js';
import { listSkills } from '../skills/skills-index.js';
import { parseDeliveryTarget } from './delivery.js';
import { assertCleanPrompt } from './scan.js';
import { firstRunTime, parseSchedule } from './schedule.js';
import { CronStore } from './store.js';
import { resolveTimeZone } from './timezone.js';
import { iso, ms, type CronJob, type JobOrigin } from './types.js';

/** A request the user can fix (bad schedule, unknown skill, no such job …). */
export class CronJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CronJobError';
  }
}

/** Longest prompt accepted, chars. */
export const MAX_PROMPT_CHARS = 20_000;

/** What the cron functions need from a profile. */
export interface CronContext {
  home: HermesHome;
  config: HermesConfig;
  /** Clock, epoch ms (tests inject one). */
  now?: () => number;
  /** The store (default: the home's jobs file). */
  store?: CronStore;
}

/** Fields of a new job. Only `schedule` and `prompt` are required. */
export interface JobInput {
  schedule: string;
  prompt: string;
  name?: string;
  /** Targets (`local`, `origin`, `file:/path`, `telegram:123` …), a list or comma-separated. */
  deliver?: string | string[];
  /** Runs before the job is removed; null/undefined, 0 or negative = forever (a one-shot runs once). */
  repeat?: number | null;
  skills?: string[];
  model?: string | null;
  cwd?: string | null;
  origin?: JobOrigin | null;
}

/** Resolved helpers of a context. */
export function cronRuntime(ctx: CronContext): { now: number; timeZone: string; store: CronStore } {
  const now = (ctx.now ?? Date.now)();
  return {
    now,
    timeZone: resolveTimeZone(ctx.config.timezone),
    store: ctx.store ?? new CronStore(ctx.home, ctx.now),
  };
}

function normalizeDeliver(deliver: JobInput['deliver'], origin: JobOrigin | null | undefined): string[] {
  const list = (Array.isArray(deliver) ? deliver : (deliver ?? '').split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  if (list.length === 0) return [origin?.platform ? 'origin' : 'local'];
  for (const t of list) parseDeliveryTarget(t); // throws CronJobError-compatible messages
  return [...new Set(list)];
}

function checkPrompt(prompt: string): string {
  assertCleanPrompt(prompt); // before trimming: trim() would drop a leading BOM unseen
  const text = prompt.trim();
  if (!text) throw new CronJobError('the prompt is empty');
  if (text.length > MAX_PROMPT_CHARS)
    throw new CronJobError(`the prompt is ${text.length} chars; at most ${MAX_PROMPT_CHARS}`);
  return text;
}

function checkSkills(home: HermesHome, skills: string[] | undefined): string[] {
  const names = [...new Set((skills ?? []).map((s) => s.trim()).filter(Boolean))];
  if (names.length === 0) return [];
  const known = new Set(listSkills(home.skillsDir).map((s) => s.name));
  for (const n of names) {
    if (!known.has(n)) {
      throw new CronJobError(
        `no skill "${n}" in ${home.skillsDir}${known.size ? ` (installed: ${[...known].join(', ')})` : ' (none installed)'}`,
      );
    }
  }
  return names;
}

/**
 * The repeat count of a job: a whole number of runs, or null for forever. `0` and negative
 * numbers (`-1`, which models often send for "forever") mean forever too.
 * @throws CronJobError for a number that is not whole.
 */
function checkRepeat(repeat: number | null | undefined): number | null {
  if (repeat === undefined || repeat === null) return null;
  if (!Number.isInteger(repeat))
    throw new CronJobError(`repeat must be a whole number (got ${repeat}); 0 or -1 mean forever`);
  return repeat <= 0 ? null : repeat;
}

function checkCwd(cwd: string | null | undefined): string | null {
  if (!cwd) return null;
  if (!isAbsolute(cwd))
    throw new CronJobError(`the working directory must be an absolute path (got "${cwd}")`);
  if (!existsSync(cwd) || !statSync(cwd).isDirectory())
    throw new CronJobError(`the working directory ${cwd} does not exist`);
  return cwd;
}

function defaultName(prompt: string): string {
  const line = prompt.split('\n').find((l) => l.trim()) ?? prompt;
  const t = line.trim();
  return t.length > 50 ? `${t.slice(0, 47)}...` : t;
}

/**
 * Finds a job by id, unique id prefix (≥ 4 chars) or exact name.
 * @throws CronJobError when none or several match.
 */
export function findJob(jobs: readonly CronJob[], ref: string): CronJob {
  const r = ref.trim();
  const exact = jobs.find((j) => j.id === r);
  if (exact) return exact;
  const byName = jobs.filter((j) => j.name === r);
  if (byName.length === 1) return byName[0]!;
  const byPrefix = r.length >= 4 ? jobs.filter((j) => j.id.startsWith(r)) : [];
  if (byPrefix.length === 1) return byPrefix[0]!;
  if (byName.length + byPrefix.length > 1)
    throw new CronJobError(`"${r}" matches several jobs; use the full id (see hermes cron list)`);
  throw new CronJobError(`no cron job "${r}" (see hermes cron list)`);
}

/** The jobs of a profile, as stored (no lock). @throws CronStoreCorruptError. */
export function listJobs(ctx: CronContext): CronJob[] {
  return cronRuntime(ctx).store.read();
}

/**
 * Creates a job: validates the schedule, scans the prompt, checks skills, targets and cwd.
 * @throws CronScheduleError, CronPromptBlockedError, CronJobError, CronStoreCorruptError.
 */
export async function createJob(ctx: CronContext, input: JobInput): Promise<CronJob> {
  const { now, timeZone, store } = cronRuntime(ctx);
  const prompt = checkPrompt(input.prompt);
  const parsed = parseSchedule(input.schedule, { now, timeZone });
  const next = firstRunTime(parsed.schedule, now, timeZone);
  const repeat = checkRepeat(input.repeat) ?? (parsed.schedule.kind === 'once' ? 1 : null);
  const job: CronJob = {
    id: randomBytes(6).toString('hex'),
    name: input.name?.trim() || defaultName(prompt),
    prompt,
    skills: checkSkills(ctx.home, input.skills),
    model: input.model?.trim() || null,
    schedule: parsed.schedule,
    schedule_display: parsed.display,
    repeat: { times: repeat, completed: 0 },
    enabled: true,
    state: 'scheduled',
    paused_at: null,
    created_at: iso(now),
    next_run_at: next === null ? null : iso(next),
    last_run_at: null,
    last_status: null,
    last_error: null,
    last_delivery_error: null,
    deliver: normalizeDeliver(input.deliver, input.origin),
    origin: input.origin ?? null,
    cwd: checkCwd(input.cwd),
    running: null,
  };
  await store.mutate((jobs) => void jobs.push(job), { repairCorrupt: true });
  return job;
}

/**
 * Changes fields of a job. A new schedule recomputes the next run and re-enables a completed or
 * failed job (with a fresh repeat count when it had run its count out); a new prompt is scanned
 * again.
 * @throws as `createJob`, and CronJobError for an unknown job.
 */
export async function updateJob(ctx: CronContext, ref: string, patch: Partial<JobInput>): Promise<CronJob> {
  const { now, timeZone, store } = cronRuntime(ctx);
  const prompt = patch.prompt !== undefined ? checkPrompt(patch.prompt) : undefined;
  const parsed = patch.schedule !== undefined ? parseSchedule(patch.schedule, { now, timeZone }) : undefined;
  const skills = patch.skills !== undefined ? checkSkills(ctx.home, patch.skills) : undefined;
  const cwd = patch.cwd !== undefined ? checkCwd(patch.cwd) : undefined;
  const repeat = patch.repeat !== undefined ? checkRepeat(patch.repeat) : undefined;
  return store.mutate(
    (jobs) => {
      const job = findJob(jobs, ref);
      if (prompt !== undefined) job.prompt = prompt;
      if (patch.name !== undefined && patch.name.trim()) job.name = patch.name.trim();
      if (skills !== undefined) job.skills = skills;
      if (cwd !== undefined) job.cwd = cwd;
      if (patch.model !== undefined) job.model = patch.model?.trim() || null;
      if (patch.deliver !== undefined) job.deliver = normalizeDeliver(patch.deliver, job.origin);
      if (repeat !== undefined) job.repeat = { times: repeat, completed: job.repeat.completed };
      if (parsed) {
        job.schedule = parsed.schedule;
        job.schedule_display = parsed.display;
        const next = firstRunTime(parsed.schedule, now, timeZone);
        job.next_run_at = next === null ? null : iso(next);
        if (job.state === 'completed' || job.state === 'error') {
          job.state = 'scheduled';
          job.enabled = true;
          if (parsed.schedule.kind === 'once') job.repeat = { times: 1, completed: 0 };
          else if (job.repeat.times !== null && job.repeat.completed >= job.repeat.times)
            job.repeat = { times: job.repeat.times, completed: 0 };
        }
      }
      return structuredClone(job);
    },
    { repairCorrupt: true },
  );
}

/** Pauses a job: kept, never fires until resumed. @throws CronJobError. */
export async function pauseJob(ctx: CronContext, ref: string): Promise<CronJob> {
  const { now, store } = cronRuntime(ctx);
  return store.mutate(
    (jobs) => {
      const job = findJob(jobs, ref);
      if (job.state === 'completed') throw new CronJobError(`job ${job.id} has completed; nothing to pause`);
      job.enabled = false;
      job.state = 'paused';
      job.paused_at = iso(now);
      return structuredClone(job);
    },
    { repairCorrupt: true },
  );
}

/**
 * Resumes a paused job from now: a recurring job gets its next future time (runs missed while
 * paused are not made up); a one-shot keeps its time if still in reach.
 * @throws CronJobError for an unknown job or a one-shot whose time has passed.
 */
export async function resumeJob(ctx: CronContext, ref: string): Promise<CronJob> {
  const { now, timeZone, store } = cronRuntime(ctx);
  return store.mutate(
    (jobs) => {
      const job = findJob(jobs, ref);
      if (job.state === 'completed')
        throw new CronJobError(`job ${job.id} has completed; edit its schedule to run it again`);
      const next = firstRunTime(job.schedule, now, timeZone);
      if (next === null)
        throw new CronJobError(
          `job ${job.id} ran once or its time has passed; edit its schedule to run it again`,
        );
      job.enabled = true;
      job.state = 'scheduled';
      job.paused_at = null;
      job.next_run_at = iso(next);
      if (job.run_requested_at) job.run_requested_at = null; // a run asked for while paused is moot now
      return structuredClone(job);
    },
    { repairCorrupt: true },
  );
}

/** Removes a job (its output files stay). @returns the removed job. @throws CronJobError. */
export async function removeJob(ctx: CronContext, ref: string): Promise<CronJob> {
  const { store } = cronRuntime(ctx);
  return store.mutate(
    (jobs) => {
      const job = findJob(jobs, ref);
      jobs.splice(jobs.indexOf(job), 1);
      return job;
    },
    { repairCorrupt: true },
  );
}

/**
 * Makes a job due now, so the next tick (within a minute in the daemon) runs it. A cron job then
 * continues at its next regular time; an interval job's cadence restarts from this run. A paused
 * job is marked `run_requested_at` instead: the next tick runs it once and it stays paused. Used
 * by the `cronjob` tool's `run` (a chat turn does not wait for a whole agent run); `hermes cron
 * run` runs at once instead (tick.ts `runJobNow`, which also keeps a paused job paused).
 * @throws CronJobError for an unknown, completed or failed job.
 */
export async function triggerJob(ctx: CronContext, ref: string): Promise<CronJob> {
  const { now, store } = cronRuntime(ctx);
  return store.mutate(
    (jobs) => {
      const job = findJob(jobs, ref);
      if (job.state === 'completed' || job.state === 'error')
        throw new CronJobError(`job ${job.id} is ${job.state}; edit its schedule to run it again`);
      if (job.state === 'paused') job.run_requested_at = iso(now);
      else if (!(ms(job.next_run_at) <= now)) job.next_run_at = iso(now);
      return structuredClone(job);
    },
    { repairCorrupt: true },
  );
}

/** Path of a job's output folder. */
export function jobOutputDir(home: HermesHome, jobId: string): string {
  return join(home.cronOutputDir, jobId);
}
