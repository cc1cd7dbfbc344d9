/**
 * `hermes tui [-p PROFILE] [--session ID | --continue | --new]` (issue 4 "Start and attach"): finds
 * the daemon through the discovery file, starts it when absent (and waits until it answers), then
 * runs the Ink TUI attached to it. Also the default command (`hermes` alone, `npm start`).
 */
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** The argv for starting the daemon with this same executable. */
export async function daemonCommand(): Promise<string[]> {
  const { realpathSync } = await import('node:fs');
  return [process.execPath, realpathSync(process.argv[1]!), 'gateway', 'run', '--detached'];
}

/** Builds the `tui` command (also `$0`). */
export function tuiCommand(ctx: CliContext): CommandModule {
  return {
    command: ['tui', '$0'],
    describe: 'Open the terminal UI (starts the daemon when needed)',
    builder: (y: Argv) =>
      y
        .option('session', {
          alias: 's',
          type: 'string',
          describe: 'Attach to this session (id or exact title)',
        })
        .option('continue', {
          alias: 'c',
          type: 'boolean',
          describe: "Resume the profile's most recent session (default)",
        })
        .option('new', { alias: 'n', type: 'boolean', describe: 'Start a new session' })
        .check((a) => {
          if ([a.session !== undefined, Boolean(a.continue), Boolean(a.new)].filter(Boolean).length > 1) {
            throw new Error('use only one of --session, --continue and --new');
          }
          return true;
        }),
    handler: async (argv) => {
      const { startBackground } = await import('@hermes/tui-gateway/lifecycle/control');
      await startBackground({ root: ctx.home.root, command: await daemonCommand(), timeoutMs: 20_000 });
      const { loadConfig } = await import('@hermes/core/config/config-file');
      let altScreen = false;
      try {
        altScreen = loadConfig(ctx.home).tui.alternate_screen;
      } catch {
        /* the daemon reports a broken config on attach */
      }
      const { runTui } = await import('@hermes/ui-tui');
      await runTui({
        root: ctx.home.root,
        profile: ctx.home.profile,
        version: ctx.version,
        mode: argv.session !== undefined ? 'session' : argv.new ? 'new' : 'continue',
        ...(argv.session !== undefined ? { session: String(argv.session) } : {}),
        altScreen,
      });
    },
  };
}
