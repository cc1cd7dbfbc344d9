/**
 * `hermes ps [--json] [--kill ID]`: the background processes the agent started in the selected
 * profile (`terminal` with `background: true`). The work is in `../ps/run-ps.ts`, loaded only
 * when the command runs.
 */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** Builds the `ps` command for the selected profile. */
export function psCommand(ctx: CliContext): CommandModule {
  return {
    command: 'ps',
    describe: 'List the background processes the agent started (through the daemon, else from its record)',
    builder: (y) =>
      y
        .option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' })
        .option('kill', {
          type: 'string',
          describe: 'Stop this process (its whole process group) through the daemon',
        }),
    handler: async (a) => {
      const { runPs } = await import('../ps/run-ps.js');
      await runPs(ctx, { json: Boolean(a.json), ...(typeof a.kill === 'string' ? { kill: a.kill } : {}) });
    },
  };
}
