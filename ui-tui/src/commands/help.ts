/**
 * The `/help` text: the TUI's commands (from the table), the daemon's own commands (from its
 * `/help` answer, so commands the table does not know, like `/SKILL-NAME`, are listed too), and
 * the keys.
 */
import { COMMANDS, findCommand, type SlashCommand } from './table.js';

/** The keys, for /help. */
export const KEY_HELP = [
  'Enter send · Shift+Enter / Alt+Enter / \\+Enter / Ctrl+J newline · ↑/↓ history',
  'Esc or Ctrl+C interrupt a turn · Ctrl+C twice on an empty composer, Ctrl+D, /quit or /exit leave (the daemon keeps the session)',
  'Ctrl+O show or hide tool output · Ctrl+G edit the message in $EDITOR · Tab completes a /command',
  'Ctrl+S send the text as guidance for the running turn (/steer), without interrupting it',
];

/** One command line of the daemon's `/help`: `usage` (`/name ARGS`) and what it does. */
export interface DaemonCommand {
  name: string;
  usage: string;
  description: string;
}

/**
 * Reads the daemon's `/help` answer: lines `  /name [ARGS]  description` (two or more spaces
 * before the description). Other lines are skipped.
 */
export function parseDaemonHelp(text: string): DaemonCommand[] {
  const out: DaemonCommand[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s+(\/(\S+)(?:\s\S+)*?)\s{2,}(\S.*)$/.exec(line);
    if (m) out.push({ usage: m[1]!, name: m[2]!.toLowerCase(), description: m[3]!.trim() });
  }
  return out;
}

/** Widest usage column of the help; longer usages run into their description. */
const USAGE_COLUMN = 24;

function usage(c: SlashCommand): string {
  return `/${[c.name, ...(c.aliases ?? [])].join(', /')}${c.args ? ` ${c.args}` : ''}`;
}

/**
 * Help text. `daemonHelp` is the daemon's `/help` answer (null when it could not be asked): the
 * commands it lists that the table does not know are added to the daemon's section.
 */
export function helpText(daemonHelp: string | null = null): string {
  const extra = (daemonHelp ? parseDaemonHelp(daemonHelp) : []).filter((d) => !findCommand(d.name));
  // a long usage (/cron's) does not push every description to the right: it takes two spaces
  const rows = (list: Array<{ usage: string; description: string }>, w: number): string[] =>
    list.map((r) => `  ${r.usage.length < w ? r.usage.padEnd(w) : `${r.usage} `} ${r.description}`);
  const local = COMMANDS.filter((c) => c.run === 'local').map((c) => ({
    usage: usage(c),
    description: c.description,
  }));
  const daemon = [
    ...COMMANDS.filter((c) => c.run === 'daemon').map((c) => ({
      usage: usage(c),
      description: c.description,
    })),
    ...extra,
  ];
  const w = Math.min(USAGE_COLUMN, Math.max(...[...local, ...daemon].map((r) => r.usage.length)) + 1);
  return [
    'Commands of this window:',
    ...rows(local, w),
    'Commands run by the daemon (for this session and profile):',
    ...rows(daemon, w),
    ...(daemonHelp === null ? ['  Other /commands are sent to the daemon as well.'] : []),
    'Keys:',
    ...KEY_HELP.map((k) => `  ${k}`),
  ].join('\n');
}
