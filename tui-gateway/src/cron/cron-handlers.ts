/**
 * The daemon's cron methods (`cron.list`, `cron.pause`, `cron.resume`, `cron.run`, `cron.output`)
 * and the `/cron` slash command, in the connection's profile (or the `profile` param). Job
 * changes go through core's jobs.ts, and each sends `cron.changed`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CronJobError,
  findJob,
  jobOutputDir,
  listJobs,
  pauseJob,
  resumeJob,
  CronScheduleError,
  judgeTickHealth,
  readTickStatus,
  acceptSuggestion,
  declineSuggestion,
  listSuggestions,
  type CronJob,
} from '@hermes/core/cron';
import { RpcErrorCode, type CronJobInfo, type MethodResult } from '@hermes/core/protocol';
import { RpcMethodError, type Connection, type HandlerRegistry } from '../rpc/types.js';
import type { CronService } from './cron-service.js';

/** The wire form of a job. */
export function toCronJobInfo(j: CronJob): CronJobInfo {
  return {
    id: j.id,
    name: j.name,
    prompt: j.prompt,
    schedule: j.schedule_display,
    state: j.state,
    enabled: j.enabled,
    next_run_at: j.next_run_at,
    last_run_at: j.last_run_at,
    last_status: j.last_status,
    last_error: j.last_error,
    last_delivery_error: j.last_delivery_error,
    deliver: j.deliver,
    repeat: j.repeat,
    skills: j.skills,
    model: j.model,
    running: j.running ? { pid: j.running.pid, since: j.running.since } : null,
  };
}

/** User mistakes become -32602; everything else stays an internal error with its message. */
async function userErrors<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CronJobError || err instanceof CronScheduleError)
      throw new RpcMethodError(RpcErrorCode.InvalidParams, err.message);
    throw err;
  }
}

/** The newest output file of a job and its text, or nulls. */
export function latestOutput(
  service: CronService,
  profile: string,
  jobId: string,
): { file: string | null; content: string | null } {
  const dir = jobOutputDir(service.home(profile), jobId);
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .sort()
    : [];
  if (files.length === 0) return { file: null, content: null };
  const file = join(dir, files[files.length - 1]!);
  return { file, content: readFileSync(file, 'utf8') };
}

/** Registers the cron methods. */
export function registerCronHandlers(rpc: HandlerRegistry, service: CronService): void {
  const profileOf = (conn: Connection, p?: string): string => p ?? conn.profile;
  rpc.register('cron.list', async (p, conn) => {
    const ctx = service.context(profileOf(conn, p.profile));
    const status = readTickStatus(ctx.home);
    return {
      jobs: listJobs(ctx).map(toCronJobInfo),
      health: {
        state: judgeTickHealth(status, Date.now()),
        last_tick_at: status.last_tick_at,
        last_success_at: status.last_success_at,
        last_error: status.last_error,
      },
    };
  });
  for (const [method, fn, reason] of [
    ['cron.pause', pauseJob, 'paused'],
    ['cron.resume', resumeJob, 'resumed'],
  ] as const) {
    rpc.register(method, async (p, conn) => {
      const profile = profileOf(conn, p.profile);
      const job = await userErrors(() => fn(service.context(profile), p.job_id));
      service.notify(profile, reason, [job.id]);
      return { job: toCronJobInfo(job) };
    });
  }
  rpc.register('cron.run', async (p, conn) => {
    const id = await userErrors(() => service.runNow(profileOf(conn, p.profile), p.job_id));
    return { job_id: id, started: true as const };
  });
  rpc.register('cron.output', async (p, conn) => {
    const profile = profileOf(conn, p.profile);
    const job = await userErrors(() => findJob(listJobs(service.context(profile)), p.job_id));
    return { job_id: job.id, ...latestOutput(service, profile, job.id) };
  });
}

const CRON_HELP = `/cron                      list this profile's cron jobs
/cron pause ID | resume ID  pause or resume a job
/cron run ID                run a job now (result arrives as it finishes)
/cron output ID             the job's latest output
/cron suggestions           suggested automations; "/cron suggestions accept KEY" creates one,
                            "/cron suggestions decline KEY" never offers it again`;

function line(j: CronJob): string {
  const next = j.next_run_at ? j.next_run_at.replace('T', ' ').slice(0, 16) : '-';
  const last = j.last_status
    ? `${j.last_status}${(j.last_status === 'error' || j.last_status === 'blocked') && j.last_error ? `: ${j.last_error.split('\n')[0]!.slice(0, 80)}` : ''}`
    : 'never ran';
  return `${j.id}  ${j.name}  [${j.schedule_display}]  ${j.running ? 'running' : j.state}  next ${next} UTC  last ${last}`;
}

/**
 * Runs `/cron …` for a connection (see `CRON_HELP`). Accepting a suggestion from the slash
 * command is the user's explicit yes (they typed `accept KEY`).
 */
export async function runCronSlash(
  service: CronService,
  profile: string,
  args: string,
): Promise<MethodResult<'slash.exec'>> {
  const [sub = 'list', ref, key] = args.trim().split(/\s+/).filter(Boolean);
  const ok = (output: string): MethodResult<'slash.exec'> => ({ output, handled: true });
  const ctx = service.context(profile);
  try {
    switch (sub) {
      case 'list': {
        const jobs = listJobs(ctx);
        const health = judgeTickHealth(readTickStatus(ctx.home), Date.now());
        return ok(
          jobs.length
            ? `${jobs.map(line).join('\n')}\n(ticker: ${health})`
            : `No cron jobs in profile ${profile}. Try /cron suggestions, or ask me to schedule something.`,
        );
      }
      case 'pause':
      case 'resume': {
        if (!ref) return ok(`Usage: /cron ${sub} ID`);
        const job = await (sub === 'pause' ? pauseJob : resumeJob)(ctx, ref);
        service.notify(profile, sub === 'pause' ? 'paused' : 'resumed', [job.id]);
        return ok(`${sub === 'pause' ? 'Paused' : 'Resumed'}: ${line(job)}`);
      }
      case 'run': {
        if (!ref) return ok('Usage: /cron run ID');
        const id = await service.runNow(profile, ref);
        return ok(`Running ${id} now; see /cron output ${id} when it finishes.`);
      }
      case 'output': {
        if (!ref) return ok('Usage: /cron output ID');
        const job = findJob(listJobs(ctx), ref);
        const out = latestOutput(service, profile, job.id);
        return ok(out.file ? `${out.file}\n\n${out.content}` : `Job ${job.id} has no output yet.`);
      }
      case 'suggestions': {
        if (ref === 'accept' && key) {
          const job = await acceptSuggestion(ctx, key, { confirmed: true });
          service.notify(profile, 'created', [job.id]);
          return ok(`Scheduled: ${line(job)}`);
        }
        if (ref === 'decline' && key) {
          declineSuggestion(ctx.home, key);
          return ok(`Declined ${key}; it will not be suggested again.`);
        }
        const list = listSuggestions(ctx.home);
        return ok(
          list.length
            ? `${list.map((s) => `${s.key}: ${s.title} — ${s.description}`).join('\n')}\nNothing is scheduled unless you say so: /cron suggestions accept KEY (or decline KEY).`
            : 'No suggestions left.',
        );
      }
      case 'help':
        return ok(CRON_HELP);
      default:
        return ok(`Unknown /cron action "${sub}".\n${CRON_HELP}`);
    }
  } catch (err) {
    return ok(`cron: ${(err as Error).message}`);
  }
}
