/** The slash commands of the TUI, as data: what the composer completes and `/help` lists. */

/** One slash command. */
export interface SlashCommand {
  /** Name without the slash. */
  name: string;
  /** Argument hint, e.g. `ID|title`; absent when it takes none. */
  args?: string;
  /** True when the argument is required. */
  argsRequired?: boolean;
  description: string;
  /** `local`: the TUI handles it; `daemon`: sent to `slash.exec`. */
  run: 'local' | 'daemon';
  aliases?: string[];
}

/** Every command the TUI knows, in the order `/help` shows them. */
export const COMMANDS: readonly SlashCommand[] = [
  { name: 'help', description: 'List commands and keys', run: 'local' },
  { name: 'new', description: 'Start a new session', run: 'local' },
  { name: 'sessions', description: 'Pick a session to resume', run: 'local' },
  {
    name: 'resume',
    args: 'ID|title',
    argsRequired: true,
    description: 'Resume a session by id or exact title',
    run: 'local',
  },
  { name: 'title', args: 'TEXT', description: 'Show or set the session title', run: 'daemon' },
  { name: 'model', args: 'ID', description: 'Pick the model, or set it', run: 'local' },
  {
    name: 'setup',
    description: 'Set up the model provider (local server, OpenRouter, OpenAI, a base URL)',
    run: 'local',
  },
  { name: 'profile', args: 'NAME', description: 'Switch profile (same daemon) and re-attach', run: 'local' },
  { name: 'usage', description: 'Token usage of this session', run: 'daemon' },
  { name: 'compact', args: 'FOCUS', description: 'Compress the conversation history', run: 'daemon' },
  {
    name: 'cron',
    args: 'list|pause ID|resume ID|run ID|output ID|suggestions',
    description: 'Scheduled jobs of this profile',
    run: 'daemon',
  },
  {
    name: 'rollback',
    args: 'list|diff N|N',
    description: "List, diff or restore file checkpoints of this session's folder",
    run: 'daemon',
  },
  { name: 'mcp', args: 'list|reload', description: 'MCP servers of this profile', run: 'daemon' },
  { name: 'tools', description: 'Tools this session can use', run: 'daemon' },
  {
    name: 'queue',
    args: 'run|drop',
    description: 'Prompts waiting for the running turn; run the held ones, or discard them all',
    run: 'daemon',
  },
  {
    name: 'permissions',
    args: 'remove N|TEXT',
    description: 'What "session" and "always" approved; forget one',
    run: 'daemon',
  },
  { name: 'status', description: 'Session state, clients attached, model', run: 'daemon' },
  {
    name: 'history',
    args: 'N',
    description: 'Print N older messages of this session (default 50)',
    run: 'local',
  },
  { name: 'clear', description: 'Clear the screen (the session is kept)', run: 'local' },
  { name: 'copy', description: 'Copy the last reply to the clipboard (OSC 52)', run: 'local' },
  { name: 'detach', description: 'Leave the session running and exit', run: 'local' },
  { name: 'quit', description: 'Exit (a running turn keeps running)', run: 'local', aliases: ['exit'] },
];

/** Finds a command by name or alias (case-insensitive). */
export function findCommand(name: string): SlashCommand | undefined {
  const n = name.toLowerCase();
  return COMMANDS.find((c) => c.name === n || c.aliases?.includes(n));
}
