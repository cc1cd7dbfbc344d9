/**
 * `hermes profile alias NAME [--as ALIAS] [--remove]`: a small executable wrapper
 * `<homeDir>/.local/bin/<alias>` that runs `hermes -p <profile> "$@"`. Its second line is a marker
 * comment; hermes only ever overwrites, rewrites or removes files that carry it.
 */
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import type { HermesHome } from '../home/home.js';
import {
  HERMES_SUBCOMMANDS,
  isValidProfileId,
  normalizeProfileName,
  RESERVED_PROFILE_NAMES,
} from '../home/profile-name.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { ProfileError } from './errors.js';
import { existingProfile } from './lookup.js';

/** Start of the marker line that makes a wrapper ours; the profile follows it. */
export const ALIAS_MARKER = '# hermes-profile-alias:';

/** Where the wrappers live: `<homeDir>/.local/bin`. */
export function aliasDir(homeDir: string): string {
  return join(homeDir, '.local', 'bin');
}

/** Options of alias operations. */
export interface AliasOptions {
  /** The user's home folder (injected; tests pass a temp folder). */
  homeDir: string;
  /** The `PATH` searched for colliding programs (default `process.env.PATH`). */
  pathEnv?: string;
  /** The command the wrapper runs (default `hermes`). */
  hermesCommand?: string;
}

const shellQuote = (s: string): string =>
  /^[A-Za-z0-9_./:@+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;

function text(profile: string, quotedCommand: string): string {
  return (
    '#!/bin/sh\n' +
    `${ALIAS_MARKER} ${profile} (written by "hermes profile alias"; hermes overwrites or removes only files with this line)\n` +
    `exec ${quotedCommand} -p ${profile} "$@"\n`
  );
}

/** The wrapper's text for `profile`: `#!/bin/sh`, the marker line, `exec hermes -p <profile> "$@"`. */
export function wrapperText(profile: string, hermesCommand = 'hermes'): string {
  return text(profile, shellQuote(hermesCommand));
}

/** The profile a hermes-written wrapper runs, or undefined when `file` is not one of ours. */
export function readOurWrapper(file: string): string | undefined {
  try {
    if (!statSync(file).isFile()) return undefined;
    const head = readFileSync(file, 'utf8').slice(0, 4096).split('\n');
    if (head[0] !== '#!/bin/sh' || !head[1]?.startsWith(ALIAS_MARKER)) return undefined;
    const profile = normalizeProfileName(head[1].slice(ALIAS_MARKER.length).trim().split(/\s/)[0] ?? '');
    return isValidProfileId(profile) ? profile : undefined;
  } catch {
    return undefined;
  }
}

/** Every hermes-written wrapper in `<homeDir>/.local/bin`: alias name → profile. */
export function listAliases(homeDir: string): Map<string, string> {
  const out = new Map<string, string>();
  const dir = aliasDir(homeDir);
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const profile = readOurWrapper(join(dir, name));
    if (profile) out.set(name, profile);
  }
  return out;
}

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `alias` cannot be used as a wrapper name, or undefined when it can:
 * not a profile-id-shaped file name, a reserved word, a hermes sub-command, or another program on
 * PATH (our own wrapper at the same place does not count).
 */
export function aliasCollision(alias: string, opts: AliasOptions): string | undefined {
  if (!isValidProfileId(alias)) {
    return `"${alias}" is not a valid alias name (use lower-case letters, digits, "-" or "_", starting with a letter or digit)`;
  }
  if (RESERVED_PROFILE_NAMES.has(alias)) return `"${alias}" is a reserved name`;
  if (HERMES_SUBCOMMANDS.has(alias)) return `"${alias}" is a hermes sub-command ("hermes ${alias}")`;
  const own = resolve(aliasDir(opts.homeDir), alias);
  for (const dir of (opts.pathEnv ?? process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = resolve(dir, alias);
    if (candidate === own) continue;
    if (isExecutableFile(candidate)) return `"${alias}" would shadow or be shadowed by ${candidate} on PATH`;
  }
  return undefined;
}

/** What `createAlias` did. */
export interface CreatedAlias {
  alias: string;
  profile: string;
  /** Absolute path of the wrapper. */
  path: string;
  /** True when an older hermes wrapper was replaced. */
  replaced: boolean;
  /** Whether the wrapper folder is on `PATH` (if not, the user must add it). */
  onPath: boolean;
}

/**
 * Writes the wrapper `<homeDir>/.local/bin/<alias>` (mode 0755) running `hermes -p <profile>`.
 * @param alias default: the profile's name.
 * @throws ProfileError `ENOENT` (no such profile), `ECOLLIDE` (see `aliasCollision`),
 *   `ENOTOURS` (a file not written by hermes is in the way).
 */
export function createAlias(
  home: HermesHome,
  profile: string,
  opts: AliasOptions & { alias?: string },
): CreatedAlias {
  const target = existingProfile(home, profile);
  const alias = normalizeProfileName(opts.alias ?? target.profile);
  const why = aliasCollision(alias, opts);
  if (why) throw new ProfileError('ECOLLIDE', `cannot create alias: ${why}`);
  const dir = aliasDir(opts.homeDir);
  const file = join(dir, alias);
  const replaced = existsSync(file);
  if (replaced && !readOurWrapper(file)) {
    throw new ProfileError('ENOTOURS', `${file} exists and was not written by hermes; not overwriting it`);
  }
  mkdirSync(dir, { recursive: true });
  writeFileAtomic(file, wrapperText(target.profile, opts.hermesCommand), 0o755);
  chmodSync(file, 0o755);
  const onPath = (opts.pathEnv ?? process.env.PATH ?? '')
    .split(delimiter)
    .some((d) => d && resolve(d) === resolve(dir));
  return { alias, profile: target.profile, path: file, replaced, onPath };
}

/**
 * Removes the wrapper `<homeDir>/.local/bin/<alias>` of `profile`.
 * @param alias default: the profile's name.
 * @returns the removed file's path.
 * @throws ProfileError `ENOENT` (no such wrapper), `ENOTOURS` (not written by hermes, or it
 *   runs another profile).
 */
export function removeAlias(profile: string, opts: AliasOptions & { alias?: string }): string {
  const canon = normalizeProfileName(profile);
  const alias = normalizeProfileName(opts.alias ?? canon);
  if (!isValidProfileId(alias)) throw new ProfileError('EINVAL', `"${alias}" is not a valid alias name`);
  const file = join(aliasDir(opts.homeDir), alias);
  if (!existsSync(file)) throw new ProfileError('ENOENT', `no alias ${file}`);
  const runs = readOurWrapper(file);
  if (!runs) throw new ProfileError('ENOTOURS', `${file} was not written by hermes; not removing it`);
  if (runs !== canon) {
    throw new ProfileError('ENOTOURS', `${file} runs profile "${runs}", not "${canon}"; not removing it`);
  }
  rmSync(file, { force: true });
  return file;
}

/** Removes every hermes-written wrapper running `profile` (after a delete). @returns their paths. */
export function removeAliasesOf(homeDir: string, profile: string): string[] {
  const removed: string[] = [];
  for (const [alias, runs] of listAliases(homeDir)) {
    if (runs !== profile) continue;
    const file = join(aliasDir(homeDir), alias);
    rmSync(file, { force: true });
    removed.push(file);
  }
  return removed;
}

/**
 * Rewrites every hermes-written wrapper running `from` to run `to` (after a rename), keeping the
 * command it ran. @returns their paths.
 */
export function retargetAliases(homeDir: string, from: string, to: string): string[] {
  const updated: string[] = [];
  for (const [alias, runs] of listAliases(homeDir)) {
    if (runs !== from) continue;
    const file = join(aliasDir(homeDir), alias);
    const exec = /^exec (.+) -p \S+ "\$@"$/m.exec(readFileSync(file, 'utf8'));
    writeFileAtomic(file, text(to, exec?.[1] ?? 'hermes'), 0o755);
    chmodSync(file, 0o755);
    updated.push(file);
  }
  return updated;
}
