/**
 * Slash commands on platforms and who may run them.
 *
 * Commands: the `platform` entries of the one slash-command table (protocol/slash-commands.ts):
 * `/new`, `/reset`, `/stop`, `/status`, `/model [id]`, `/help`, `/whoami`,
 * `/approve [session|always]`, `/deny`. Anything else that starts with `/` goes to the agent as
 * text.
 *
 * Access: without `admins` configured every authorized user may run every command (the
 * historical behaviour). With `admins`, other users may run only `help` and `whoami` (always:
 * otherwise nobody can find out what they may do) plus the platform's `user_commands`.
 *
 * Per scope (`slashPolicyFor`, the original's keys, at the platform's level or under its
 * `extra:`): a direct message uses `allow_admin_from` and `user_allowed_commands`; a group,
 * channel or thread `group_allow_admin_from` and `group_user_allowed_commands`. Admin lists never
 * cross scopes (a DM admin is not a group admin); a scope without its own admin list uses
 * `admins`, and without either its gate is off. A DM without its own command list uses
 * `user_commands`, else the group's list; a group without its own uses `user_commands`.
 */
import type { PlatformConfig } from './platform-config.js';
import type { ChatType } from './source.js';
import {
  findSlashCommand,
  platformCommandNames,
  type PlatformCommandName,
} from '../protocol/slash-commands.js';

/** The commands the messaging layer answers itself, in `/help` order (from the one table). */
export const PLATFORM_COMMANDS: readonly PlatformCommand[] = platformCommandNames();
/** A command the messaging layer answers itself. */
export type PlatformCommand = PlatformCommandName;

/** Commands every authorized user may run whatever the policy says. */
export const ALWAYS_ALLOWED_COMMANDS: readonly PlatformCommand[] = PLATFORM_COMMANDS.filter(
  (c) => findSlashCommand('platform', c)?.platform?.alwaysAllowed,
);

/** One-line descriptions for `/help`. */
export const COMMAND_HELP = Object.fromEntries(
  PLATFORM_COMMANDS.map((c) => [c, findSlashCommand('platform', c)!.platform!.description]),
) as Record<PlatformCommand, string>;

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

type ScopedKey =
  'allow_admin_from' | 'user_allowed_commands' | 'group_allow_admin_from' | 'group_user_allowed_commands';

/** A scoped key of a platform's config: at its level first, then under `extra:`. */
function scoped(cfg: PlatformConfig, key: ScopedKey): string[] | undefined {
  return cfg[key] ?? cfg.extra?.[key];
}

/**
 * The slash-command access of one chat scope of a platform (see the module comment).
 * @param chatType the message's chat type; `dm` (or none) is the DM scope, anything else a group.
 */
export function slashPolicyFor(
  cfg: PlatformConfig,
  chatType: ChatType | string | undefined,
): SlashAccessPolicy {
  if (!chatType || chatType === 'dm') {
    const admins = scoped(cfg, 'allow_admin_from') ?? cfg.admins;
    const commands =
      scoped(cfg, 'user_allowed_commands') ??
      (cfg.user_commands.length > 0 ? cfg.user_commands : scoped(cfg, 'group_user_allowed_commands')) ??
      [];
    return new SlashAccessPolicy(admins, commands);
  }
  const admins = scoped(cfg, 'group_allow_admin_from') ?? cfg.admins;
  return new SlashAccessPolicy(admins, scoped(cfg, 'group_user_allowed_commands') ?? cfg.user_commands);
}

/** `/approve` arguments → approval choice; undefined for something else. */
export function approveChoice(args: string): 'once' | 'session' | 'always' | undefined {
  const a = args.trim().toLowerCase();
  if (a === '' || a === 'once') return 'once';
  if (a === 'session' || a === 'always') return a;
  return undefined;
}
