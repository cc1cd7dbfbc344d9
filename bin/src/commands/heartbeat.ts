/**
 * `hermes heartbeat add --session ID --every 30m PROMPT | list [--session ID] | remove ID`:
 * recurring prompts inside an existing session, through the daemon. The work is in
 * `../heartbeat/run-heartbeat.ts`, loaded only when the command runs.
 */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';
import type { HeartbeatArgs } from '../heartbeat/run-heartbeat.js';

/** Builds the `heartbeat` command for the selected profile. */
export function heartbeatCommand(ctx: CliContext): CommandModule {
  const run = async (a: HeartbeatArgs) => {
    const { runHeartbeat } = await import('../heartbeat/run-heartbeat.js');
    await runHeartbeat(ctx, a);
  };
  return {
    command: 'heartbeat',
    describe: 'Recurring prompts inside an existing session (run by the daemon)',
    builder: (y) =>
      y
        .option('json', { type: 'boolean', default: false, describe: 'Print JSON' })
        .command(
          'add <prompt..>',
          'Run PROMPT in session --session every --every (30m, 2h, 45s)',
          (b) =>
            b
              .positional('prompt', { type: 'string', array: true, demandOption: true })
              .option('session', { type: 'string', demandOption: true, describe: 'Session id' })
              .option('every', {
                type: 'string',
                demandOption: true,
                describe: 'Interval: 30m, 2h, 1d, 45s',
              }),
          (a) =>
            run({
              action: 'add',
              session: String(a.session),
              every: String(a.every),
              prompt: (a.prompt as string[]).join(' '),
              json: Boolean(a.json),
            }),
        )
        .command(
          'list',
          'List the heartbeats of the profile',
          (b) => b.option('session', { type: 'string', describe: 'Only those of this session' }),
          (a) =>
            run({
              action: 'list',
              ...(a.session ? { session: String(a.session) } : {}),
              json: Boolean(a.json),
            }),
        )
        .command(
          'remove <id>',
          'Cancel a heartbeat',
          (b) => b.positional('id', { type: 'string', demandOption: true }),
          (a) => run({ action: 'remove', id: String(a.id), json: Boolean(a.json) }),
        )
        .demandCommand(1, 'name a sub-command: add, list or remove'),
    handler: () => undefined,
  };
}
