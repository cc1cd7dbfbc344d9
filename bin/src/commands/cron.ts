/**
 * `hermes cron list | add SCHEDULE PROMPT | edit ID | pause ID | resume ID | remove ID | run ID |
 * output ID | tick | status | suggestions [accept|decline KEY]`, `--json` on each. The
 * work is in `../cron/run-cron.ts`, loaded only when the command runs.
 */
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../context.js';
import type { CronArgs, JobFields } from '../cron/run-cron.js';

const run = async (ctx: CliContext, args: CronArgs): Promise<void> => {
  const { runCron } = await import('../cron/run-cron.js');
  await runCron(ctx, args);
};

const withJson = <T>(y: Argv<T>) =>
  y.option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' });

const withId = <T>(y: Argv<T>) =>
  withJson(y).positional('id', { type: 'string', demandOption: true, describe: 'Job id, id prefix or name' });

const withFields = <T>(y: Argv<T>) =>
  y
    .option('name', { type: 'string', describe: 'Short name shown in lists and deliveries' })
    .option('deliver', {
      type: 'string',
      describe:
        'Targets, comma-separated: local, origin, file:/abs/path, <platform>[:<chat>] (default local)',
    })
    .option('repeat', { type: 'number', describe: 'Run this many times, then remove the job' })
    .option('skill', { type: 'string', array: true, describe: 'Skill loaded before the prompt (repeatable)' })
    .option('model', { type: 'string', describe: "Model for the run (default: the profile's)" })
    .option('cwd', { type: 'string', describe: 'Working directory of the run (absolute)' });

function fields(a: Record<string, unknown>): JobFields {
  const s = (k: string): string | undefined => (typeof a[k] === 'string' ? (a[k] as string) : undefined);
  return {
    ...(s('name') !== undefined ? { name: s('name') } : {}),
    ...(s('deliver') !== undefined ? { deliver: s('deliver') } : {}),
    ...(typeof a.repeat === 'number' ? { repeat: a.repeat } : {}),
    ...(Array.isArray(a.skill) ? { skill: (a.skill as unknown[]).map(String) } : {}),
    ...(s('model') !== undefined ? { model: s('model') } : {}),
    ...(s('cwd') !== undefined ? { cwd: s('cwd') } : {}),
  };
}

/** Builds the `cron` command and its sub-commands for the selected profile. */
export function cronCommand(ctx: CliContext): CommandModule {
  return {
    command: 'cron',
    describe: 'Scheduled agent runs: list, add, edit, pause, resume, remove, run, tick, status',
    builder: (y) =>
      y
        .command('list', 'List the cron jobs of this profile', withJson, (a) =>
          run(ctx, { action: 'list', json: a.json }),
        )
        .command(
          'add <schedule> <prompt..>',
          'Add a job. SCHEDULE: 30m | 2h | 1d (once), "every 2h", "0 9 * * 1-5" (cron), 2026-12-01T09:00',
          (c) =>
            withFields(withJson(c))
              .positional('schedule', {
                type: 'string',
                demandOption: true,
                describe: 'When (quote cron expressions)',
              })
              .positional('prompt', {
                type: 'string',
                array: true,
                demandOption: true,
                describe: 'The task',
              }),
          (a) =>
            run(ctx, {
              action: 'add',
              json: a.json,
              schedule: String(a.schedule),
              prompt: (a.prompt as unknown as string[]).join(' '),
              ...fields(a),
            }),
        )
        .command(
          'edit <id>',
          'Change a job (only the options given)',
          (c) =>
            withFields(withId(c))
              .option('schedule', { type: 'string', describe: 'New schedule' })
              .option('prompt', { type: 'string', describe: 'New prompt' }),
          (a) =>
            run(ctx, {
              action: 'edit',
              json: a.json,
              id: String(a.id),
              ...fields(a),
              ...(typeof a.schedule === 'string' ? { schedule: a.schedule } : {}),
              ...(typeof a.prompt === 'string' ? { prompt: a.prompt } : {}),
            }),
        )
        .command('pause <id>', 'Pause a job (kept, never fires)', withId, (a) =>
          run(ctx, { action: 'pause', json: a.json, id: String(a.id) }),
        )
        .command('resume <id>', 'Resume a paused job from now', withId, (a) =>
          run(ctx, { action: 'resume', json: a.json, id: String(a.id) }),
        )
        .command('remove <id>', 'Remove a job (its outputs stay)', withId, (a) =>
          run(ctx, { action: 'remove', json: a.json, id: String(a.id) }),
        )
        .command('run <id>', 'Run a job now, here, and print the result', withId, (a) =>
          run(ctx, { action: 'run', json: a.json, id: String(a.id) }),
        )
        .command('output <id>', "Show a job's latest output", withId, (a) =>
          run(ctx, { action: 'output', json: a.json, id: String(a.id) }),
        )
        .command(
          'tick',
          'Run one scheduler tick now (what the daemon does every minute)',
          (c) =>
            withJson(c).option('verbose', {
              alias: 'v',
              type: 'boolean',
              default: false,
              describe: 'Log to stderr',
            }),
          (a) => run(ctx, { action: 'tick', json: a.json, verbose: a.verbose }),
        )
        .command('status', 'Is cron ticking, and are the ticks succeeding?', withJson, (a) =>
          run(ctx, { action: 'status', json: a.json }),
        )
        .command(
          'suggestions [sub] [key]',
          'Suggested automations: list, "accept KEY" (asks first) or "decline KEY"',
          (c) =>
            withJson(c)
              .positional('sub', {
                type: 'string',
                choices: ['accept', 'decline'],
                describe: 'accept or decline',
              })
              .positional('key', { type: 'string', describe: 'The suggestion key' })
              .option('yes', {
                alias: 'y',
                type: 'boolean',
                default: false,
                describe: 'Accept without asking',
              })
              .option('all', {
                type: 'boolean',
                default: false,
                describe: 'Also list accepted and declined ones',
              }),
          (a) =>
            run(ctx, {
              action: 'suggestions',
              json: a.json,
              yes: a.yes,
              all: a.all,
              ...(a.sub ? { sub: String(a.sub) } : {}),
              ...(a.key ? { key: String(a.key) } : {}),
            }),
        )
        .demandCommand(
          1,
          'Give a cron sub-command: list, add, edit, pause, resume, remove, run, output, tick, status, suggestions',
        ),
    handler: () => {},
  };
}
