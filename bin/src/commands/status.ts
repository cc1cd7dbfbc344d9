/**
 * `hermes status [--json] [--watch] [--tmux]`: what every live session of the daemon is doing,
 * across profiles. `hermes status --tmux` is answered by main.ts on a minimal path (it reaches
 * here only after a flag such as `-p`); the rest is in `../status/run-status.ts`, loaded only
 * when the command runs.
 */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** Builds the `status` command. */
export function statusCommand(ctx: CliContext): CommandModule {
  return {
    command: 'status',
    describe: 'Show every live session of the daemon across profiles (state, turn time, tokens)',
    builder: (y) =>
      y
        .option('json', {
          type: 'boolean',
          default: false,
          describe: 'Print JSON (with --watch: one line per change)',
        })
        .option('watch', { type: 'boolean', default: false, describe: 'Redraw on every change until Ctrl+C' })
        .option('tmux', {
          type: 'boolean',
          default: false,
          describe: "One short line for tmux's status-right",
        }),
    handler: async (a) => {
      if (a.tmux) {
        // reached with a flag before `status` (`hermes -p work status --tmux`): the same line
        const { runTmuxLine } = await import('../status/tmux-line.js');
        await runTmuxLine();
        return;
      }
      const { runStatus } = await import('../status/run-status.js');
      await runStatus(ctx, { json: Boolean(a.json), watch: Boolean(a.watch) });
    },
  };
}
