/**
 * The one table of slash commands, for every surface that takes them: the TUI's composer, the
 * line mode of `hermes chat`, the chat platforms (messaging) and the daemon's `slash.exec`. Each
 * surface derives its command list, its `/help` and its completion from here; a command a surface
 * does not list here is not a command there (its text goes on as a prompt or to the daemon).
 *
 * Zod-free and import-free on purpose: the TUI imports this file, and nothing here may pull a
 * schema library or the engine into its bundle.
 */

/**
 * How the TUI runs a command: `tui` handles it in the window (screen, pickers, switching
 * sessions); `daemon` sends the line to `slash.exec` (possibly after showing something locally).
 */
export type TuiRunner = 'tui' | 'daemon';

/**
 * Which part of the daemon answers a `slash.exec` command: `session` the session layer
 * (tui-gateway/src/sessions/slash-commands.ts), `cron` the cron service (it takes `/cron …` before
 * the session layer sees it), `heartbeat` the heartbeats of the hub (`/heartbeat …`), `handoff` the hub's handoffs (`/handoff …`), `skill` the saved-skill fallback (any name that is a skill).
 */
export type DaemonRunner = 'session' | 'cron' | 'heartbeat' | 'handoff' | 'skill';

/** A help line: the usage as printed (`/name ARGS`) and what the command does. */
export interface SlashHelpLine {
  readonly usage: string;
  readonly description: string;
}

/** One slash command and where it is offered. A surface that has no entry does not offer it. */
export interface SlashCommandDef {
  /** Name without the slash, lower case (`SKILL-NAME` stands for any saved skill's name). */
  readonly name: string;
  /** Other names of the command, on every surface that offers it. */
  readonly aliases?: readonly string[];
  /** The TUI's composer: completion, `/help` (in table order) and who runs it. */
  readonly tui?: {
    /** Argument hint shown after the name, e.g. `ID|title`; absent when it takes none. */
    readonly args?: string;
    /** True when the command refuses to run without an argument. */
    readonly argsRequired?: boolean;
    readonly description: string;
    readonly runs: TuiRunner;
  };
  /** The line mode of `hermes chat` (in-process, no daemon). */
  readonly chat?: { readonly description: string };
  /** Chat platforms: the messaging layer answers it itself, in the chat it came from. */
  readonly platform?: {
    /** The `/help` line after `/name: `. */
    readonly description: string;
    /** Position in the platform's `/help` and `/whoami` lists (ascending). */
    readonly order: number;
    /** True: every authorized user may run it even when `admins` restricts the others. */
    readonly alwaysAllowed?: boolean;
  };
  /** `slash.exec`: the daemon answers it for any client. */
  readonly daemon?: {
    readonly runner: DaemonRunner;
    /** Its line in the daemon's `/help`, at `order` (ascending); absent: not listed there. */
    readonly help?: SlashHelpLine & { readonly order: number };
  };
}

/** Every slash command, in the order the TUI's `/help` and completion show them. */
export const SLASH_COMMANDS = [
  {
    name: 'help',
    tui: { description: 'List commands and keys', runs: 'tui' },
    chat: { description: 'List the commands of the line chat' },
    platform: { description: 'this list', order: 6, alwaysAllowed: true },
    daemon: { runner: 'session', help: { usage: '/help', description: 'this list', order: 11 } },
  },
  {
    name: 'new',
    tui: { description: 'Start a new session', runs: 'tui' },
    platform: { description: 'start a new conversation', order: 1 },
  },
  { name: 'reset', platform: { description: 'same as /new', order: 2 } },
  { name: 'stop', platform: { description: 'stop the reply being generated', order: 3 } },
  { name: 'sessions', tui: { description: 'Pick a session to resume', runs: 'tui' } },
  {
    name: 'resume',
    tui: {
      args: 'ID|title',
      argsRequired: true,
      description: 'Resume a session by id or exact title',
      runs: 'tui',
    },
  },
  {
    name: 'title',
    tui: { args: 'TEXT', description: 'Show or set the session title', runs: 'daemon' },
    daemon: {
      runner: 'session',
      help: { usage: '/title TEXT', description: 'rename this session', order: 8 },
    },
  },
  {
    name: 'model',
    tui: {
      args: '[PROVIDER/]MODEL',
      description: 'Pick the model, or switch provider and model',
      runs: 'tui',
    },
    platform: {
      description: 'show the model (/model <id> changes the default; admins only when admins are set)',
      order: 5,
    },
  },
  {
    name: 'setup',
    tui: {
      description: 'Set up the model provider (local server, OpenRouter, OpenAI, a base URL)',
      runs: 'tui',
    },
  },
  {
    name: 'profile',
    tui: { args: 'NAME', description: 'Switch profile (same daemon) and re-attach', runs: 'tui' },
  },
  {
    name: 'usage',
    tui: { description: 'Token usage of this session', runs: 'daemon' },
    daemon: {
      runner: 'session',
      help: { usage: '/usage', description: 'token usage of this session', order: 9 },
    },
  },
  {
    name: 'compact',
    tui: { args: 'FOCUS', description: 'Compress the conversation history', runs: 'daemon' },
    daemon: {
      runner: 'session',
      help: {
        usage: '/compact [FOCUS]',
        description: 'compress the conversation history now (FOCUS: what to keep in detail)',
        order: 1,
      },
    },
  },
  {
    name: 'undo',
    tui: { description: 'Drop the last exchange (your last prompt and its answer)', runs: 'tui' },
  },
  { name: 'retry', tui: { description: 'Run the last prompt again, replacing its answer', runs: 'tui' } },
  {
    name: 'rewind',
    tui: {
      args: 'files',
      description: 'Pick a past prompt: the conversation goes back to before it (files: also the files)',
      runs: 'tui',
    },
  },
  {
    name: 'fork',
    tui: {
      args: 'pick',
      description: 'A new session from here (pick: from a past prompt); this one is kept',
      runs: 'tui',
    },
  },
  {
    name: 'steer',
    tui: {
      args: 'TEXT',
      argsRequired: true,
      description: 'Guide the running turn at its next step, without interrupting it (also Ctrl+S)',
      runs: 'tui',
    },
  },
  {
    name: 'cron',
    tui: {
      args: 'list|pause ID|resume ID|run ID|output ID|suggestions',
      description: 'Scheduled jobs of this profile',
      runs: 'daemon',
    },
    daemon: { runner: 'cron' },
  },
  {
    name: 'heartbeat',
    tui: {
      args: 'EVERY PROMPT|cancel ID',
      description: 'Run a prompt in this session every EVERY (30m, 2h); bare: list them',
      runs: 'daemon',
    },
    daemon: { runner: 'heartbeat' },
  },
  {
    name: 'handoff',
    tui: {
      args: 'PLATFORM|tui',
      argsRequired: true,
      description: "Continue this session in the owner's chat on PLATFORM too (telegram …); tui: back",
      runs: 'daemon',
    },
    daemon: { runner: 'handoff' },
  },
  {
    name: 'rollback',
    tui: {
      args: 'list|diff N|N',
      description: "List, diff or restore file checkpoints of this session's folder",
      runs: 'daemon',
    },
    daemon: {
      runner: 'session',
      help: {
        usage: '/rollback [list | diff N | N [FILE]]',
        description: "list, inspect or restore file checkpoints of this session's folder",
        order: 2,
      },
    },
  },
  {
    name: 'mcp',
    tui: { args: 'list|reload', description: 'MCP servers of this profile', runs: 'daemon' },
    daemon: {
      runner: 'session',
      help: {
        usage: '/mcp [list | reload]',
        description: 'MCP servers of this profile and their state',
        order: 3,
      },
    },
  },
  {
    name: 'SKILL-NAME',
    daemon: {
      runner: 'skill',
      help: {
        usage: '/SKILL-NAME [TEXT]',
        description: 'load a saved skill (see skills_list) and run it with TEXT',
        order: 4,
      },
    },
  },
  {
    name: 'tools',
    tui: { description: 'Tools this session can use', runs: 'daemon' },
    daemon: {
      runner: 'session',
      help: { usage: '/tools', description: 'tools the model can use in this session', order: 7 },
    },
  },
  {
    name: 'queue',
    tui: {
      args: 'run|drop',
      description: 'Prompts waiting for the running turn; run the held ones, or discard them all',
      runs: 'daemon',
    },
    daemon: {
      runner: 'session',
      help: {
        usage: '/queue [run | drop]',
        description: "prompts waiting in this session's queue; run the held ones; discard them all",
        order: 5,
      },
    },
  },
  {
    name: 'ps',
    tui: { args: 'kill ID', description: 'Background processes of this profile; stop one', runs: 'daemon' },
    daemon: {
      runner: 'session',
      help: {
        usage: '/ps [kill ID]',
        description: 'background processes of this profile; stop one',
        order: 8,
      },
    },
  },
  {
    name: 'permissions',
    tui: {
      args: 'remove N|TEXT',
      description: 'What "session" and "always" approved; forget one',
      runs: 'daemon',
    },
    daemon: {
      runner: 'session',
      help: {
        usage: '/permissions [remove N|TEXT]',
        description: 'what "session" and "always" approved; forget one',
        order: 6,
      },
    },
  },
  {
    name: 'status',
    tui: { description: 'Session state, clients attached, model', runs: 'daemon' },
    platform: { description: 'session, model and context use', order: 4 },
    daemon: {
      runner: 'session',
      help: { usage: '/status', description: 'session state, clients attached, model', order: 10 },
    },
  },
  {
    name: 'history',
    tui: { args: 'N', description: 'Print N older messages of this session (default 50)', runs: 'tui' },
  },
  { name: 'clear', tui: { description: 'Clear the screen (the session is kept)', runs: 'tui' } },
  { name: 'copy', tui: { description: 'Copy the last reply to the clipboard (OSC 52)', runs: 'tui' } },
  {
    name: 'image',
    tui: {
      args: 'PATH|clear',
      argsRequired: true,
      description: 'Attach an image file to the next prompt',
      runs: 'tui',
    },
  },
  {
    name: 'paste',
    tui: { description: 'Attach the clipboard image to the next prompt (Ctrl+V)', runs: 'tui' },
  },
  { name: 'detach', tui: { description: 'Leave the session running and exit', runs: 'tui' } },
  {
    name: 'quit',
    aliases: ['exit'],
    tui: { description: 'Exit (a running turn keeps running)', runs: 'tui' },
    chat: { description: 'Leave the line chat (as Ctrl+D does)' },
  },
  {
    name: 'whoami',
    platform: { description: 'your id on this platform and what you may do', order: 7, alwaysAllowed: true },
  },
  {
    name: 'approve',
    platform: {
      description: 'approve the pending command: /approve, /approve session, /approve always',
      order: 8,
    },
  },
  { name: 'deny', platform: { description: 'deny the pending command', order: 9 } },
  {
    name: 'reasoning',
    tui: {
      args: 'none|low|medium|high|default',
      description: 'Show or set how much the model reasons in this session',
      runs: 'daemon',
    },
    platform: {
      description:
        'show or set how much the model reasons here: /reasoning none|low|medium|high|default (admins only when admins are set)',
      order: 10,
    },
    daemon: {
      runner: 'session',
      help: {
        usage: '/reasoning [LEVEL]',
        description: 'reasoning effort of this session: none, low, medium, high or default',
        order: 12,
      },
    },
  },
] as const satisfies readonly SlashCommandDef[];

type Entry = (typeof SLASH_COMMANDS)[number];

/** Names of the commands the TUI offers. */
export type TuiCommandName = Extract<Entry, { tui: object }>['name'];
/** Names of the commands the TUI handles itself (`runs: 'tui'`). */
export type TuiLocalCommandName = Extract<Entry, { tui: { runs: 'tui' } }>['name'];
/** Names of the commands the line mode of `hermes chat` offers. */
export type ChatCommandName = Extract<Entry, { chat: object }>['name'];
/** Names of the commands the messaging layer answers on chat platforms. */
export type PlatformCommandName = Extract<Entry, { platform: object }>['name'];
/** Names of the commands the daemon's session layer answers (`runner: 'session'`). */
export type DaemonSessionCommandName = Extract<Entry, { daemon: { runner: 'session' } }>['name'];

const ALL: readonly SlashCommandDef[] = SLASH_COMMANDS;

/** The commands a surface offers, in table order. */
export function commandsFor(surface: 'tui' | 'chat' | 'platform' | 'daemon'): SlashCommandDef[] {
  return ALL.filter((c) => c[surface] !== undefined);
}

/**
 * The entry a surface offers under `name` or one of its aliases (case-insensitive), or undefined.
 * `SKILL-NAME` is a placeholder and never matches.
 */
export function findSlashCommand(
  surface: 'tui' | 'chat' | 'platform' | 'daemon',
  name: string,
): SlashCommandDef | undefined {
  const n = name.toLowerCase();
  return ALL.find(
    (c) => c[surface] !== undefined && c.name !== 'SKILL-NAME' && (c.name === n || c.aliases?.includes(n)),
  );
}

/**
 * The line-mode command a whole input line of `hermes chat` is (`/quit`, `/exit`, `/help`), or
 * undefined when the line is anything else (then it is a prompt). Exact: no arguments, lower case.
 */
export function chatLineCommand(line: string): ChatCommandName | undefined {
  const m = /^\/([a-z][\w-]*)$/.exec(line.trim());
  return m ? (findSlashCommand('chat', m[1]!)?.name as ChatCommandName | undefined) : undefined;
}

/**
 * The name of the command of the terminal UI or the daemon that a whole `hermes chat` input line
 * is (`/sessions`, `/new`, `/model gpt-4o` …) when the line mode does not offer it, else undefined
 * (a line mode command, a path such as `/usr/bin/ls`, or any other text: a prompt).
 */
export function chatLineForeignCommand(line: string): string | undefined {
  const m = /^\/([a-z][\w-]*)(?:\s|$)/.exec(line.trim());
  if (!m || findSlashCommand('chat', m[1]!)) return undefined;
  return (findSlashCommand('tui', m[1]!) ?? findSlashCommand('daemon', m[1]!))?.name;
}

/** The platform commands in their `/help` order. */
export function platformCommandNames(): PlatformCommandName[] {
  return ALL.filter((c) => c.platform)
    .sort((a, b) => a.platform!.order - b.platform!.order)
    .map((c) => c.name as PlatformCommandName);
}

/** Width of the usage column of the daemon's `/help`; a longer usage takes two spaces. */
const DAEMON_USAGE_WIDTH = 12;

/**
 * The daemon's `/help` answer: a heading, then one line per listed command,
 * `  /usage  description`, in help order. The TUI parses these lines (help.ts).
 */
export function daemonHelpText(): string {
  const lines = ALL.flatMap((c) => (c.daemon?.help ? [c.daemon.help] : []))
    .sort((a, b) => a.order - b.order)
    .map((h) => `  ${h.usage.padEnd(DAEMON_USAGE_WIDTH)}  ${h.description}`);
  return ['Commands handled by the daemon:', ...lines].join('\n');
}
