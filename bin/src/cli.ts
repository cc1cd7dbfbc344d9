/** The yargs command tree. Each command lives in `commands/<name>.ts` and loads its package lazily. */
import yargs, { type Argv } from 'yargs';
import type { CliContext } from './context.js';
import { chatCommand } from './commands/chat.js';
import { checkpointsCommand } from './commands/checkpoints.js';
import { configCommand } from './commands/config.js';
import { cronCommand } from './commands/cron.js';
import { gatewayCommand } from './commands/gateway.js';
import { pairingCommand } from './commands/pairing.js';
import { profileCommand } from './commands/profile.js';
import { sessionsCommand } from './commands/sessions.js';
import { skillsCommand } from './commands/skills.js';
import { tuiCommand } from './commands/tui.js';

/** Builds the parser for `argv` (profile flag already removed). */
export function buildCli(ctx: CliContext, argv: string[]): Argv {
  return yargs(argv)
    .scriptName('hermes')
    .version(ctx.version)
    .option('profile', {
      alias: 'p',
      type: 'string',
      describe: 'Profile to use (resolved before the command runs)',
      global: true,
    })
    .command(chatCommand(ctx))
    .command(checkpointsCommand(ctx))
    .command(configCommand(ctx))
    .command(cronCommand(ctx))
    .command(gatewayCommand(ctx))
    .command(pairingCommand(ctx))
    .command(profileCommand(ctx))
    .command(sessionsCommand(ctx))
    .command(skillsCommand(ctx))
    .command(tuiCommand(ctx))
    .strict()
    .recommendCommands()
    .fail((msg, err) => {
      if (err) throw err;
      process.stderr.write(`hermes: ${msg}\nRun "hermes --help" for usage.\n`);
      process.exit(1);
    })
    .help()
    .wrap(Math.min(110, process.stdout.columns || 80));
}
