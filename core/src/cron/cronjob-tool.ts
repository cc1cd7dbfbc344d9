/**
 * The `cronjob` tool, the model's side of the scheduler: lets the user say "remind me every
 * weekday at 9" in a chat. Actions create, list, update, pause, resume,
 * remove, run; every change goes through jobs.ts (same validation and prompt scan as the CLI).
 *
 * - A job's origin is the chat it was created from (`session_id`, profile); results go back there
 *   by default (`deliver: origin`; a TUI/CLI origin delivers to the local inbox).
 * - `run` makes the job due at the next tick (the daemon ticks every minute): a chat turn does
 *   not wait for a whole unattended agent run.
 * - The tool is never offered inside a cron run (`inCron: false`).
 * - Under `approvals.cron_mode: allow` a job's dangerous commands run unasked, so creating a job,
 *   or changing what one runs (prompt, skills, model), is asked first like the same change made
 *   with `hermes cron add|edit` through `terminal` (the approval guard, `checkCommand`); denied,
 *   nothing is stored. Under `deny` (the default) nothing is asked: such a job cannot run them.
 * - The cron modules load on first use, so the tool costs nothing at start-up.
 */
import { shellQuote } from '../approvals/allowlist-entry.js';
import { blockedResult } from '../tools/args.js';
import { defineTool, type ToolArgs, type Zod } from '../tools/define.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../tools/types.js';
import type { CronJob } from './types.js';

const ACTIONS = ['create', 'list', 'update', 'pause', 'resume', 'remove', 'run'] as const;

/** What the model sees of a job. */
export function jobSummary(job: CronJob): Record<string, unknown> {
  return {
    job_id: job.id,
    name: job.name,
    schedule: job.schedule_display,
    state: job.state,
    next_run_at: job.next_run_at,
    last_run_at: job.last_run_at,
    last_status: job.last_status,
    ...(job.last_error ? { last_error: job.last_error } : {}),
    repeat: job.repeat,
    deliver: job.deliver,
    ...(job.skills.length ? { skills: job.skills } : {}),
    prompt: job.prompt.length > 200 ? `${job.prompt.slice(0, 197)}...` : job.prompt,
  };
}

const str = (v: string | undefined): string | undefined => (v?.trim() ? v : undefined);

const parameters = (z: Zod) =>
  z.object({
    action: z.enum(ACTIONS).describe('What to do'),
    job_id: z.string().describe('The job (update, pause, resume, remove, run)').optional(),
    schedule: z.string().describe("When: '30m', 'every 2h', '0 9 * * *' or an ISO time").optional(),
    prompt: z.string().describe('The self-contained task the job runs').optional(),
    name: z.string().describe('Short name shown in lists and deliveries').optional(),
    deliver: z
      .string()
      .describe(
        "Where results go: 'origin' (default), 'local', '<platform>:<chat id>'; comma-separated for several",
      )
      .optional(),
    repeat: z
      .int()
      .describe('Run this many times, then remove the job (default, 0 or -1: forever; a one-shot runs once)')
      .optional(),
    skills: z.array(z.string()).describe('Skills loaded before the prompt').optional(),
    model: z.string().describe("Model for the run (default: the profile's)").optional(),
  });

type CronjobArgs = ToolArgs<typeof parameters>;

function fail(content: string): ToolResult {
  return { ok: false, content, summary: content.split('\n')[0]!.slice(0, 120) };
}

/**
 * Asks the approval guard whether a job may run `task` unattended, when `approvals.cron_mode`
 * lets cron runs do dangerous things unasked: the question is the `hermes cron` command line that
 * would make the same change. @returns the refusal, or undefined when it may go ahead.
 */
async function approveUnattended(ctx: ToolContext, line: string[]): Promise<ToolResult | undefined> {
  if (ctx.config.approvals.cron_mode !== 'allow') return undefined;
  const word = (w: string): string => (/^[A-Za-z0-9_%+=:,./@-]+$/.test(w) ? w : shellQuote(w));
  const verdict = await ctx.checkCommand(['hermes', 'cron', ...line.map(word)].join(' '));
  return verdict.allowed ? undefined : blockedResult(verdict);
}

async function handle(args: CronjobArgs, ctx: ToolContext): Promise<ToolResult> {
  const jobs = await import('./jobs.js');
  const cron = { home: ctx.home, config: ctx.config };
  const { action } = args;
  const id = str(args.job_id);
  const needId = (): string => {
    if (!id) throw new jobs.CronJobError(`action "${action}" needs job_id (see action "list")`);
    return id;
  };
  const fields = {
    ...(str(args.schedule) ? { schedule: args.schedule } : {}),
    ...(str(args.prompt) ? { prompt: args.prompt } : {}),
    ...(str(args.name) ? { name: args.name } : {}),
    ...(str(args.deliver) ? { deliver: args.deliver } : {}),
    ...(str(args.model) ? { model: args.model } : {}),
    ...(args.repeat !== undefined ? { repeat: args.repeat } : {}),
    ...(args.skills ? { skills: args.skills } : {}),
  };
  // the model may not pick a file on disk as a target: a job's reply would be appended there
  // unattended, outside the file tools' guard (a `.pth` file would become code). The user
  // can still set one with `hermes cron add|edit --deliver file:…`.
  if (fields.deliver?.split(',').some((t) => t.trim().toLowerCase().startsWith('file:'))) {
    return fail(
      'file: delivery targets can only be set by the user (hermes cron add/edit --deliver file:/path); ' +
        "use 'origin', 'local' or '<platform>:<chat id>'",
    );
  }
  switch (action) {
    case 'list': {
      const list = jobs.listJobs(cron).map(jobSummary);
      return { ok: true, content: JSON.stringify({ jobs: list }, null, 2), summary: `${list.length} job(s)` };
    }
    case 'create': {
      if (!fields.schedule || !fields.prompt)
        return fail(
          'cronjob create needs "schedule" and "prompt" (a self-contained task: the job runs without this chat).',
        );
      const refused = await approveUnattended(ctx, [
        'add',
        fields.schedule,
        fields.prompt,
        ...(fields.skills ?? []).flatMap((s) => ['--skill', s]),
        ...(fields.model ? ['--model', fields.model] : []),
      ]);
      if (refused) return refused;
      const job = await jobs.createJob(cron, {
        ...fields,
        schedule: fields.schedule,
        prompt: fields.prompt,
        deliver: fields.deliver ?? 'origin',
        origin: { session_id: ctx.sessionId, profile: ctx.home.profile },
      });
      return {
        ok: true,
        content: JSON.stringify({ created: jobSummary(job) }, null, 2),
        summary: `scheduled ${job.name} (${job.schedule_display})`,
      };
    }
    case 'update': {
      if (fields.prompt !== undefined || fields.skills !== undefined || fields.model !== undefined) {
        const refused = await approveUnattended(ctx, [
          'edit',
          needId(),
          ...(fields.prompt !== undefined ? ['--prompt', fields.prompt] : []),
          ...(fields.skills ?? []).flatMap((s) => ['--skill', s]),
          ...(fields.model ? ['--model', fields.model] : []),
        ]);
        if (refused) return refused;
      }
      const job = await jobs.updateJob(cron, needId(), fields);
      return {
        ok: true,
        content: JSON.stringify({ updated: jobSummary(job) }, null, 2),
        summary: `updated ${job.id}`,
      };
    }
    case 'pause':
    case 'resume':
    case 'remove':
    case 'run': {
      const fn = {
        pause: jobs.pauseJob,
        resume: jobs.resumeJob,
        remove: jobs.removeJob,
        run: jobs.triggerJob,
      }[action];
      const job = await fn(cron, needId());
      const note =
        action === 'run'
          ? `it runs at the next tick (within about a minute while the daemon runs)${job.state === 'paused' ? ', once; it stays paused' : ''}`
          : undefined;
      return {
        ok: true,
        content: JSON.stringify(
          { [action === 'run' ? 'triggered' : `${action}d`]: jobSummary(job), ...(note ? { note } : {}) },
          null,
          2,
        ),
        summary: `${action} ${job.id}`,
      };
    }
  }
}

/** The `cronjob` tool definition. */
export const cronjobTool: ToolDefinition = defineTool({
  name: 'cronjob',
  description:
    'Schedule tasks that run unattended later or repeatedly (reminders, reports, checks), and manage them. ' +
    'Actions: create (schedule + prompt), list, update (job_id + fields to change), pause, resume, remove, run (due at the next tick). ' +
    "Schedules: '30m' / '2h' / '1d' = once, that long from now; 'every 2h' = repeatedly; a 5-field cron expression like '0 9 * * 1-5'; " +
    "or an ISO time like '2026-12-01T09:00'. The prompt must be self-contained: the job runs in a fresh session that cannot see this chat. " +
    "Results go back to this chat by default (deliver 'origin'); also 'local' or '<platform>:<chat id>'. " +
    'A job whose reply is exactly [SILENT] delivers nothing (useful for monitors).',
  parameters,
  readOnly: false,
  toolsets: ['cronjob'],
  inCron: false,
  verb: ['Scheduled', 'Scheduling'],
  summarize: (args) =>
    `${String(args.action)}${args.job_id ? ` ${String(args.job_id)}` : ''}${args.schedule ? ` ${String(args.schedule)}` : ''}`,
  async run(args, ctx) {
    try {
      return await handle(args, ctx);
    } catch (err) {
      return fail(`cronjob ${args.action}: ${(err as Error).message}`);
    }
  },
});
