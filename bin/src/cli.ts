/** The yargs command tree. Each command lives in `commands/<name>.ts` and loads its package lazily. */
import yargs, { type Argv } from 'yargs';
import type { CliContext } from './context.js';
import { acpCommand } from './commands/acp.js';
import { authCommand } from './commands/auth.js';
import { chatCommand } from './commands/chat.js';
import { checkpointsCommand } from './commands/checkpoints.js';
import { configCommand } from './commands/config.js';
import { cronCommand } from './commands/cron.js';
import { gatewayCommand } from './commands/gateway.js';
import { heartbeatCommand } from './commands/heartbeat.js';
import { mcpCommand } from './commands/mcp.js';
import { migrateCommand } from './commands/migrate.js';
import { modelCommand } from './commands/model.js';
import { pairingCommand } from './commands/pairing.js';
import { profileCommand } from './commands/profile.js';
import { psCommand } from './commands/ps.js';
import { sandboxCommand } from './commands/sandbox.js';
import { sessionsCommand } from './commands/sessions.js';
import { skillsCommand } from './commands/skills.js';
import { statusCommand } from './commands/status.js';
import { tuiCommand } from './commands/tui.js';
import { usageCommand } from './commands/usage.js';
import { hermesCommand } from './command-form.js';

/**
 * The help to point a usage error at: `hermes config --help` for a `hermes config …` line (the
 * first word that names one of `commands`), else `hermes --help`.
 */
export function usageHint(
  argv: readonly string[],
  commands: readonly string[],
  hermes: string = hermesCommand(),
): string {
  const first = argv.find((a) => !a.startsWith('-'));
  const command = commands.find((c) => c === first);
  return `Run "${hermes} ${command ? `${command} ` : ''}--help" for usage.`;
}

/** Builds the parser for `argv` (profile flag already removed). */
export function buildCli(ctx: CliContext, argv: string[]): Argv {
  const commands = [
    acpCommand(ctx),
    authCommand(ctx),
    chatCommand(ctx),
    checkpointsCommand(ctx),
    configCommand(ctx),
    cronCommand(ctx),
    gatewayCommand(ctx),
    heartbeatCommand(ctx),
    mcpCommand(ctx),
    migrateCommand(ctx),
    modelCommand(ctx),
    pairingCommand(ctx),
    profileCommand(ctx),
    psCommand(ctx),
    sandboxCommand(ctx),
    sessionsCommand(ctx),
    skillsCommand(ctx),
    statusCommand(ctx),
    tuiCommand(ctx),
    usageCommand(ctx),
  ];
  const names = commands.map((c) => String([c.command].flat()[0]).split(' ')[0]!);
  let parser = yargs(argv).scriptName('hermes').version(ctx.version).option('profile', {
    alias: 'p',
    type: 'string',
    describe: 'Profile to use (resolved before the command runs)',
    global: true,
  });
  for (const command of commands) parser = parser.command(command);
  return parser
    .completion('completion', 'Print the bash/zsh completion script (provider ids and models complete too)')
    .strict()
    .recommendCommands()
    .fail((msg, err) => {
      if (err) throw err;
      process.stderr.write(`hermes: ${msg}\n${usageHint(argv, names)}\n`);
      process.exit(1);
    })
    .help()
    .wrap(Math.min(110, process.stdout.columns || 80));
}
