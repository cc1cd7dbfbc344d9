/**
 * Slash commands on platforms and who may run them (seed 000 §4.5 "slash access").
 *
 * Commands: `/new`, `/reset`, `/stop`, `/status`, `/model [id]`, `/help`, `/whoami`,
 * `/approve [session|always]`, `/deny`. Anything else that starts with `/` goes to the agent as
 * text.
 *
 * Access: without `admins` configured every authorized user may run every command (the
 * historical behaviour). With `admins`, other users may run only `help` and `whoami` (always:
 * otherwise nobody can find out what they may do) plus the platform's `user_commands`.
 */

/** The commands the gateway answers itself. */
export const PLATFORM_COMMANDS = [
  'new',
  'reset',
  'stop',
  'status',
  'model',
  'help',
  'whoami',
  'approve',
  'deny',
] as const;
export type PlatformCommand = (typeof PLATFORM_COMMANDS)[number];

/** Commands every authorized user may run whatever the policy says. */
export const ALWAYS_ALLOWED_COMMANDS: readonly PlatformCommand[] = ['help', 'whoami'];

/** One-line descriptions for `/help`. */
export const COMMAND_HELP: Record<PlatformCommand, string> = {
  new: 'start a new conversation',
  reset: 'same as /new',
  stop: 'stop the reply being generated',
  status: 'session, model and context use',
  model: 'show the model (/model <id> changes the default; admins only when admins are set)',
  help: 'this list',
  whoami: 'your id on this platform and what you may do',
  approve: 'approve the pending command: /approve, /approve session, /approve always',
  deny: 'deny the pending command',
};

/** A parsed command line. */
export interface ParsedCommand {
  name: PlatformCommand;
  /** Text after the command name, trimmed. */
  args: string;
}

/**
 * Parses `/name args` (also `/name@botname args`, Telegram's group form). Case-insensitive name.
 * @returns undefined when the text is not one of `PLATFORM_COMMANDS`.
 */
export function parseCommand(text: string): ParsedCommand | undefined {
  const m = /^\/([A-Za-z_]+)(?:@\S+)?(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const name = m[1]!.toLowerCase();
  if (!(PLATFORM_COMMANDS as readonly string[]).includes(name)) return undefined;
  return { name: name as PlatformCommand, args: (m[2] ?? '').trim() };
}

/** The access rules of one platform. */
export class SlashAccessPolicy {
  private readonly admins: Set<string>;
  private readonly userCommands: Set<string>;

  /**
   * @param admins user ids allowed every command; empty → no gate at all.
   * @param userCommands what non-admins may run besides help/whoami.
   */
  constructor(admins: readonly string[] = [], userCommands: readonly string[] = []) {
    this.admins = new Set(admins.map((a) => String(a).trim()).filter(Boolean));
    this.userCommands = new Set(userCommands.map((c) => c.replace(/^\//, '').toLowerCase()));
  }

  /** True when admins are configured (the gate is on). */
  get gated(): boolean {
    return this.admins.size > 0;
  }

  /** True when the user is an admin (or no gate is configured). */
  isAdmin(userId: string | undefined): boolean {
    return !this.gated || (!!userId && this.admins.has(userId));
  }

  /** Whether an (already authorized) user may run a command. */
  allows(userId: string | undefined, command: string): boolean {
    const name = command.replace(/^\//, '').toLowerCase();
    if ((ALWAYS_ALLOWED_COMMANDS as readonly string[]).includes(name)) return true;
    return this.isAdmin(userId) || this.userCommands.has(name);
  }

  /** The commands a user may run, in `PLATFORM_COMMANDS` order. */
  allowedCommands(userId: string | undefined): PlatformCommand[] {
    return PLATFORM_COMMANDS.filter((c) => this.allows(userId, c));
  }
}

/** `/approve` arguments → approval choice; undefined for something else. */
export function approveChoice(args: string): 'once' | 'session' | 'always' | undefined {
  const a = args.trim().toLowerCase();
  if (a === '' || a === 'once') return 'once';
  if (a === 'session' || a === 'always') return a;
  return undefined;
}
