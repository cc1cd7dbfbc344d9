/**
 * Profile names and their rules.
 *
 * A profile id is `^[a-z0-9][a-z0-9_-]{0,63}$` after trimming and lower-casing. Some names are
 * reserved (they would shadow a directory or a system user) and hermes sub-command names are refused
 * because a wrapper alias with that name would collide with `hermes <subcommand>`.
 */

/** The regular expression every profile id must match. */
export const PROFILE_ID_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The name of the profile that lives in the root itself. */
export const DEFAULT_PROFILE = 'default';

/** Names that can never be created as a profile. */
export const RESERVED_PROFILE_NAMES: ReadonlySet<string> = new Set([
  'hermes',
  'default',
  'test',
  'tmp',
  'root',
  'sudo',
]);

/** hermes sub-command names, refused as profile names. */
export const HERMES_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'chat',
  'model',
  'gateway',
  'setup',
  'whatsapp',
  'login',
  'logout',
  'status',
  'cron',
  'doctor',
  'dump',
  'config',
  'pairing',
  'skills',
  'tools',
  'mcp',
  'sessions',
  'insights',
  'version',
  'update',
  'uninstall',
  'profile',
  'plugins',
  'honcho',
  'acp',
  'tui',
  'checkpoints',
  'usage',
  'auth',
  'migrate',
  'heartbeat',
]);

/** Canonical form of a user-typed profile name: trimmed and lower-cased. */
export function normalizeProfileName(name: string): string {
  return name.trim().toLowerCase();
}

/** True when `name` (already normalised) is a syntactically valid profile id. */
export function isValidProfileId(name: string): boolean {
  return PROFILE_ID_RE.test(name);
}

/**
 * Checks a name for a new profile (create, rename target, import).
 * @returns the canonical name.
 * @throws Error saying why the name is refused (syntax, reserved, or a sub-command).
 */
export function validateNewProfileName(name: string): string {
  const canon = normalizeProfileName(name);
  if (!isValidProfileId(canon)) {
    throw new Error(
      `Invalid profile name "${name}": use 1-64 characters, lower-case letters, digits, "-" or "_", starting with a letter or digit`,
    );
  }
  if (RESERVED_PROFILE_NAMES.has(canon)) throw new Error(`Profile name "${canon}" is reserved`);
  if (HERMES_SUBCOMMANDS.has(canon)) {
    throw new Error(
      `Profile name "${canon}" is a hermes sub-command and would collide with "hermes ${canon}"`,
    );
  }
  return canon;
}
