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

/** Edits (insert, delete, replace, swap of neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The command a mistyped first word most likely meant (`sesions` → `sessions`): the first word of
 * `argv` when it is no command, matched against `commands` within 2 edits (1 for words of up to 4
 * letters); undefined when nothing is that close. A first word that is no command is otherwise
 * taken by the default command (`tui`) and refused as an unknown argument, without a hint.
 */
export function commandTypo(argv: readonly string[], commands: readonly string[]): string | undefined {
  const first = argv.find((a) => !a.startsWith('-'));
  if (first === undefined || commands.includes(first)) return undefined;
  const word = first.toLowerCase();
  const limit = word.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of commands) {
    const distance = editDistance(word, name);
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
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
      const typo = /^Unknown arguments?:/.test(msg) ? commandTypo(argv, [...names, 'completion']) : undefined;
      const hint = typo ? `Did you mean ${hermesCommand()} ${typo}?\n` : '';
      process.stderr.write(`hermes: ${msg}\n${hint}${usageHint(argv, names)}\n`);
      process.exit(1);
    })
    .help()
    .wrap(Math.min(110, process.stdout.columns || 80));
}
