/**
 * What `hermes cron …` does. Loaded only when the command runs. Every change goes
 * through `@hermes/core/cron` (same validation and prompt scan as the `cronjob` tool);
 * `tick` and `run` use the same tick/run code as the daemon.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@hermes/core/config';
import { HermesHome } from '@hermes/core/home';
import {
  createJob,
  findJob,
  jobOutputDir,
  listJobs,
  pauseJob,
  removeJob,
  resumeJob,
  updateJob,
  type CronContext,
  type JobInput,
  judgeTickHealth,
  readTickStatus,
  acceptSuggestion,
  declineSuggestion,
  listSuggestions,
  runJobNow,
  tick,
  type TickOptions,
  resolveTimeZone,
} from '@hermes/core/cron';
import { CliExit, type CliContext } from '../context.js';
import { formatJob, formatJobTable, formatOutcome, formatStatus, formatTick } from './format.js';
import { confirm } from '../confirm.js';
import { hermesCommand } from '../command-form.js';

/** Fields `add` and `edit` accept. */
export interface JobFields {
  schedule?: string;
  prompt?: string;
  name?: string;
  deliver?: string;
  repeat?: number;
  skill?: string[];
  model?: string;
  cwd?: string;
}

/** Parsed arguments of one `hermes cron` action. */
export type CronArgs =
  | { action: 'list'; json: boolean }
  | ({ action: 'add'; json: boolean; schedule: string; prompt: string } & JobFields)
  | ({ action: 'edit'; json: boolean; id: string } & JobFields)
  | { action: 'pause' | 'resume' | 'remove' | 'run' | 'output'; json: boolean; id: string }
  | { action: 'tick'; json: boolean; verbose: boolean }
  | { action: 'status'; json: boolean }
  | { action: 'suggestions'; json: boolean; sub?: string; key?: string; yes: boolean; all: boolean };

/** Where output goes (stdout by default; tests pass a collector). */
export interface CronIO {
  write(text: string): void;
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

function toInput(f: JobFields): Partial<JobInput> {
  return {
    ...(f.schedule !== undefined ? { schedule: f.schedule } : {}),
    ...(f.prompt !== undefined ? { prompt: f.prompt } : {}),
    ...(f.name !== undefined ? { name: f.name } : {}),
    ...(f.deliver !== undefined ? { deliver: f.deliver } : {}),
    ...(f.repeat !== undefined ? { repeat: f.repeat } : {}),
    ...(f.skill !== undefined ? { skills: f.skill } : {}),
    ...(f.model !== undefined ? { model: f.model } : {}),
    ...(f.cwd !== undefined ? { cwd: f.cwd } : {}),
  };
}

/**
 * How often the daemon ticks, from the default profile's config.yaml as the daemon reads it when
 * it starts: `cron.trigger` when one is set, else every `cron.tick_interval` seconds.
 */
export function tickCadence(root: string): string {
  try {
    const { cron } = loadConfig(new HermesHome(root));
    if (cron.trigger) return `its ticks come from cron.trigger (${cron.trigger})`;
    return `it ticks every ${cron.tick_interval} s (cron.tick_interval, read when it starts)`;
  } catch {
    return 'it ticks every cron.tick_interval seconds (default 60)';
  }
}

async function daemonState(root: string): Promise<string> {
  const { inspectDiscovery } = await import('@hermes/tui-gateway/lifecycle/discovery');
  const d = inspectDiscovery(join(root, 'tui-gateway.json'));
  if (d.state === 'alive') return `running (pid ${d.info.pid}); ${tickCadence(root)}`;
  const h = hermesCommand();
  return `not running: jobs only run on "${h} cron tick" (start it with: ${h} gateway start)`;
}

/** The newest output file of a job, or undefined. */
export function latestOutput(ctx: CronContext, id: string): string | undefined {
  const dir = jobOutputDir(ctx.home, id);
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  return files.length ? join(dir, files[files.length - 1]!) : undefined;
}

/**
 * Runs one action in the selected profile.
 * @throws CliExit(1) for a failed tick or run; the errors of core/cron (bad schedule, blocked
 *   prompt, unknown job, corrupt jobs file …) propagate with their messages.
 */
export async function runCron(
  ctx: CliContext,
  args: CronArgs,
  io: CronIO = { write: (t) => void process.stdout.write(t) },
): Promise<void> {
  const config = loadConfig(ctx.home);
  const cron: CronContext = { home: ctx.home, config };
  const zone = resolveTimeZone(config.timezone);
  const now = Date.now();
  const out = (value: unknown, text: string): void => io.write(args.json ? json(value) : text);
  const tickOpts: TickOptions = {
    home: ctx.home,
    config,
    ticker: `hermes cron (pid ${process.pid})`,
    ...(args.action === 'tick' && args.verbose
      ? { log: (l: string) => void process.stderr.write(`${l}\n`) }
      : {}),
  };
  switch (args.action) {
    case 'list': {
      const jobs = listJobs(cron);
      return out(jobs, formatJobTable(jobs, now, zone));
    }
    case 'add': {
      const job = await createJob(cron, { ...toInput(args), schedule: args.schedule, prompt: args.prompt });
      return out(job, `Added:\n${formatJob(job, now, zone)}`);
    }
    case 'edit': {
      const input = toInput(args);
      if (Object.keys(input).length === 0)
        throw new CliExit(
          1,
          'nothing to change: give --schedule, --prompt, --name, --deliver, --repeat, --skill, --model or --cwd',
        );
      const job = await updateJob(cron, args.id, input);
      return out(job, `Updated:\n${formatJob(job, now, zone)}`);
    }
    case 'pause':
    case 'resume':
    case 'remove': {
      const fn = { pause: pauseJob, resume: resumeJob, remove: removeJob }[args.action];
      const job = await fn(cron, args.id);
      const verb = { pause: 'Paused', resume: 'Resumed', remove: 'Removed' }[args.action];
      return out(job, `${verb}:\n${formatJob(job, now, zone)}`);
    }
    case 'run': {
      const outcome = await runJobNow(tickOpts, args.id);
      // the help promises the result: show the saved output after the summary
      let text: string;
      try {
        text = outcome.outputFile ? readFileSync(outcome.outputFile, 'utf8').trimEnd() : '';
      } catch {
        text = '';
      }
      out(outcome, `${formatOutcome(outcome)}${text ? `\n${text}\n` : ''}`);
      if (outcome.status === 'error') throw new CliExit(1);
      return;
    }
    case 'output': {
      const job = findJob(listJobs(cron), args.id);
      const file = latestOutput(cron, job.id);
      if (!file) throw new CliExit(1, `job ${job.id} has no output yet`);
      const content = readFileSync(file, 'utf8');
      return out({ job_id: job.id, file, content }, `${file}\n\n${content}`);
    }
    case 'tick': {
      const r = await tick(tickOpts);
      out(r, formatTick(r));
      if (r.status === 'failed') throw new CliExit(1);
      return;
    }
    case 'status': {
      const status = readTickStatus(ctx.home);
      const health = judgeTickHealth(status, now);
      let jobs: ReturnType<typeof listJobs> = [];
      let jobsError: string | undefined;
      try {
        jobs = listJobs(cron);
      } catch (err) {
        jobsError = (err as Error).message;
      }
      const daemon = await daemonState(ctx.home.root);
      out(
        { health, ...status, daemon, jobs: jobs.length, ...(jobsError ? { jobs_error: jobsError } : {}) },
        formatStatus({ health, status, now, daemon, jobs, zone }) +
          (jobsError ? `  jobs file: ${jobsError}\n` : ''),
      );
      return;
    }
    case 'suggestions': {
      if (!args.sub) {
        const list = listSuggestions(ctx.home, { all: args.all });
        const text = list.length
          ? `${list.map((s) => `${s.key}${s.status !== 'new' ? ` [${s.status}]` : ''}\n  ${s.title}: ${s.description}\n  schedule: ${s.schedule}`).join('\n')}\n\nAccept one with: ${hermesCommand()} cron suggestions accept KEY (asks first; --yes to skip)\n`
          : 'No suggestions left (accepted and declined ones are not offered again; --all lists them).\n';
        return out(list, text);
      }
      if (!args.key)
        throw new CliExit(
          1,
          `give the suggestion's key: ${hermesCommand()} cron suggestions ${args.sub} KEY`,
        );
      if (args.sub === 'decline') {
        declineSuggestion(ctx.home, args.key);
        return out({ declined: args.key }, `Declined ${args.key}; it will not be offered again.\n`);
      }
      if (args.sub !== 'accept')
        throw new CliExit(1, `unknown suggestions action "${args.sub}" (accept, decline)`);
      const s = listSuggestions(ctx.home, { all: true }).find((x) => x.key === args.key);
      const yes =
        args.yes ||
        (s && process.stdin.isTTY
          ? await confirm(`Create the job "${s.title}" (${s.schedule})? [y/N] `)
          : false);
      if (!yes)
        throw new CliExit(
          1,
          'not created: accepting a suggestion needs an explicit yes (--yes, or answer y on a terminal)',
        );
      const job = await acceptSuggestion(cron, args.key, { confirmed: true });
      return out(job, `Added:\n${formatJob(job, now, zone)}`);
    }
  }
}
