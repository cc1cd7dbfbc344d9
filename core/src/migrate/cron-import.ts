/**
 * The original's `cron/jobs.json` (`{"jobs": [...]}`; each job: `id`, `name`, `prompt`,
 * `schedule: {kind: cron|interval|once, expr|minutes|run_at, display}`, `schedule_display`,
 * `skills`/`skill`, `model`, `deliver`, `workdir`, `repeat`, `no_agent`/`script` …) into this
 * home's jobs. Every job arrives **paused** (`hermes cron resume ID` starts it): the two programs
 * must never both run it, and its skills, model and targets are worth a look here first. A job
 * keeps its id when it has our form (12 hex digits), else gets one derived from it, so a second
 * run recognises what the first brought.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { HermesHome } from '../home/home.js';
import { parseDeliveryTarget } from '../cron/delivery.js';
import { validateCronExpression } from '../cron/schedule.js';
import { CronStore } from '../cron/store.js';
import { iso, type CronJob, type Schedule } from '../cron/types.js';
import { MigrateError } from './errors.js';
import type { CronResult, Skipped } from './types.js';

type Json = Record<string, unknown>;

const ID_RE = /^[0-9a-f]{12}$/;

/** Our id for an original job id: the same when it has our form, else 12 hex digits derived from it. */
export function jobIdFor(sourceId: string): string {
  return ID_RE.test(sourceId)
    ? sourceId
    : createHash('sha256').update(`python-hermes:${sourceId}`).digest('hex').slice(0, 12);
}

function schedule(raw: unknown, now: number, timeZone: string): Schedule | string {
  if (!raw || typeof raw !== 'object') return 'it has no schedule';
  const s = raw as Json;
  if (s.kind === 'cron' && typeof s.expr === 'string') {
    try {
      validateCronExpression(s.expr, timeZone);
    } catch (err) {
      return `its cron expression "${s.expr}" is not valid here: ${(err as Error).message}`;
    }
    return { kind: 'cron', expr: s.expr };
  }
  if (s.kind === 'interval' && typeof s.minutes === 'number' && s.minutes > 0)
    return { kind: 'interval', minutes: Math.round(s.minutes) };
  if (s.kind === 'once' && typeof s.run_at === 'string') {
    const at = Date.parse(s.run_at);
    if (!Number.isFinite(at)) return `its time "${s.run_at}" does not parse`;
    if (at <= now) return `it ran once, at ${s.run_at}, and that time has passed`;
    return { kind: 'once', run_at: iso(at) };
  }
  return `its schedule kind "${String(s.kind)}" is not known here`;
}

function deliverList(raw: unknown, notes: string[]): string[] {
  const list = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [])
    .map((t) => String(t).trim())
    .filter(Boolean);
  const ok = list.filter((t) => {
    try {
      parseDeliveryTarget(t);
      return true;
    } catch {
      notes.push(t);
      return false;
    }
  });
  return ok.length > 0 ? [...new Set(ok)] : ['local'];
}

/** Reads the original's jobs. @throws MigrateError naming the file when it is not a job list. */
export function readSourceJobs(file: string): Json[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new MigrateError(file, `not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const list = Array.isArray(data) ? data : (data as { jobs?: unknown } | null)?.jobs;
  if (!Array.isArray(list)) throw new MigrateError(file, 'no "jobs" list');
  return list.filter((j): j is Json => Boolean(j) && typeof j === 'object' && !Array.isArray(j));
}

/** Converts one job (paused), or says why it cannot come. */
export function convertJob(raw: Json, now: number, timeZone: string): CronJob | Skipped {
  const sourceId = typeof raw.id === 'string' && raw.id ? raw.id : '';
  const label = `${sourceId || '(no id)'}${typeof raw.name === 'string' && raw.name ? ` "${raw.name}"` : ''}`;
  if (!sourceId) return { item: label, reason: 'it has no id' };
  if (raw.no_agent === true || (typeof raw.script === 'string' && raw.script))
    return {
      item: label,
      reason: 'it runs a script without the agent (no_agent); this hermes has no script-only jobs',
    };
  const prompt = typeof raw.prompt === 'string' ? raw.prompt.trim() : '';
  if (!prompt) return { item: label, reason: 'its prompt is empty' };
  const sched = schedule(raw.schedule, now, timeZone);
  if (typeof sched === 'string') return { item: label, reason: sched };
  const skills = [
    ...(Array.isArray(raw.skills) ? raw.skills : []),
    ...(typeof raw.skill === 'string' ? [raw.skill] : []),
  ]
    .map((s) => String(s).trim())
    .filter(Boolean);
  const badTargets: string[] = [];
  const repeat = raw.repeat && typeof raw.repeat === 'object' ? (raw.repeat as Json) : {};
  const display =
    (typeof raw.schedule_display === 'string' && raw.schedule_display) ||
    String((raw.schedule as Json).display ?? (sched.kind === 'cron' ? sched.expr : sched.kind));
  const job: CronJob = {
    id: jobIdFor(sourceId),
    name: (typeof raw.name === 'string' && raw.name.trim()) || prompt.split('\n')[0]!.slice(0, 50),
    prompt,
    skills: [...new Set(skills)],
    model: typeof raw.model === 'string' && raw.model ? raw.model : null,
    schedule: sched,
    schedule_display: display,
    repeat: {
      times: typeof repeat.times === 'number' && repeat.times > 0 ? Math.round(repeat.times) : null,
      completed: typeof repeat.completed === 'number' ? Math.max(0, Math.round(repeat.completed)) : 0,
    },
    enabled: false,
    state: 'paused',
    paused_at: iso(now),
    created_at:
      typeof raw.created_at === 'string' && Number.isFinite(Date.parse(raw.created_at))
        ? iso(Date.parse(raw.created_at))
        : iso(now),
    next_run_at: null,
    last_run_at: null,
    last_status: null,
    last_error: null,
    last_delivery_error: null,
    deliver: deliverList(raw.deliver, badTargets),
    origin: raw.origin && typeof raw.origin === 'object' ? (raw.origin as CronJob['origin']) : null,
    cwd: typeof raw.workdir === 'string' && raw.workdir.startsWith('/') ? raw.workdir : null,
    running: null,
  };
  if (badTargets.length > 0)
    job.last_error = `delivery targets not known here were left out: ${badTargets.join(', ')}`;
  return job;
}

/**
 * Adds the original's jobs to this home's, paused. With `dryRun` only says what would come.
 * @throws MigrateError naming the source file; the cron store's errors naming ours.
 */
export async function importCronJobs(
  sourceFile: string,
  home: HermesHome,
  opts: { dryRun: boolean; now: number; timeZone: string },
): Promise<CronResult> {
  const result: CronResult = { jobs: [], alreadyMigrated: 0, skipped: [] };
  const store = new CronStore(home);
  const existing = new Set(store.read().map((j) => j.id));
  const fresh: CronJob[] = [];
  for (const raw of readSourceJobs(sourceFile)) {
    const job = convertJob(raw, opts.now, opts.timeZone);
    if (!('id' in job)) {
      result.skipped.push(job);
      continue;
    }
    if (existing.has(job.id)) {
      result.alreadyMigrated++;
      continue;
    }
    existing.add(job.id);
    fresh.push(job);
    result.jobs.push({ id: job.id, name: job.name, schedule: job.schedule_display });
  }
  if (!opts.dryRun && fresh.length > 0) {
    await store.mutate((jobs) => {
      const ids = new Set(jobs.map((j) => j.id));
      for (const j of fresh) if (!ids.has(j.id)) jobs.push(j);
    });
  }
  return result;
}
