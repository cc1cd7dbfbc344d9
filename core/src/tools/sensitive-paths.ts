/**
 * The write deny-list of the file tools (`write_file`, `patch`): system and credential paths the
 * agent's file tools never write, whatever the working directory.
 *
 * Source of the rule: the original Hermes (`agent/file_safety.py`: `build_write_denied_paths`,
 * `build_write_denied_prefixes`, and the system prefixes `/etc/`, `/boot/`, `/usr/lib/systemd/`,
 * `/private/etc/`), which refuses these writes outright. Shell commands touching the same files
 * need the user's approval here (approvals/rules/files.ts: `write-etc`, `tee-etc`,
 * `credential-files` …); the file tools have no approval prompt, so they refuse — at least as
 * strict as the terminal.
 *
 * Both the path as written and its real path are checked, and the real path is found even for a
 * file that does not exist yet (the deepest existing folder is resolved) or for a dangling
 * symlink (followed by hand), so `notes.txt -> ~/.ssh/authorized_keys` is refused too.
 */
import { homedir } from 'node:os';
import { basename, join, resolve, sep } from 'node:path';
import { isInside, pathForms, resolveRealPath } from '../util/paths.js';

/**
 * Files under the user's home that hold credentials or run code at log-in / on every git call
 * (relative to the home). Also used by the terminal's rules (approvals/rules/files.ts) and fallback patterns (dangerous-paths.ts).
 */
export const HOME_FILES: readonly string[] = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.netrc',
  '.pgpass',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.gitconfig',
];

/** Folders under the user's home: keys, cloud credentials, auto-started units (relative to the home). */
export const HOME_DIRS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.kube',
  '.docker',
  '.azure',
  '.config/gh',
  '.config/gcloud',
  '.config/systemd',
  '.config/autostart',
  '.config/fish',
];

/** System folders: configuration, boot, system binaries and units, devices, cron spools (absolute). */
export const SYSTEM_DIRS: readonly string[] = [
  '/etc',
  '/private/etc',
  '/boot',
  '/bin',
  '/sbin',
  '/usr/bin',
  '/usr/sbin',
  '/usr/lib/systemd',
  '/lib/systemd',
  '/var/spool/cron',
  '/dev',
  '/proc',
  '/sys',
];

/** Folder names that hold keys wherever they are (another user's `~/.ssh`, a mounted home). */
const KEY_DIR_NAMES = new Set(['.ssh', '.gnupg']);

/**
 * Why the file tools may not write `abs`, or undefined when the path is not a system or
 * credential path.
 * @param abs absolute path as the tool resolved it (`~` already expanded).
 * @param userHome the user's home folder (default `os.homedir()`, i.e. `$HOME`).
 * @returns a one-line refusal naming the path and the protected location.
 */
export function sensitiveWriteReason(abs: string, userHome: string = homedir()): string | undefined {
  const candidates = pathForms(resolve(abs));
  const refuse = (what: string): string =>
    `refused: ${abs} is a protected system or credential path (${what}); the file tools never write there. ` +
    'If the user wants this change, they can make it themselves.';
  for (const rel of HOME_FILES) {
    const entry = join(userHome, rel);
    if (pathForms(entry).some((e) => candidates.includes(e))) return refuse(`~/${rel}`);
  }
  for (const rel of HOME_DIRS) {
    const entry = join(userHome, rel);
    if (pathForms(entry).some((e) => candidates.some((c) => isInside(e, c)))) return refuse(`~/${rel}/`);
  }
  for (const dir of SYSTEM_DIRS) {
    if (pathForms(dir).some((e) => candidates.some((c) => isInside(e, c)))) return refuse(`${dir}/`);
  }
  for (const c of candidates) {
    const keyDir = c.split(sep).find((part) => KEY_DIR_NAMES.has(part));
    if (keyDir) return refuse(`a ${keyDir}/ folder`);
  }
  return undefined;
}

/** Suffixes of `.env.<suffix>` files that document variables rather than hold them. */
const ENV_DOC_SUFFIXES = new Set(['example', 'sample', 'template', 'dist', 'defaults', 'schema']);

/**
 * True for a file name that holds environment secrets: `.env`, `.env.<anything>` (`.env.local`,
 * `.env.production` …) and `.envrc`, in any case; not the documentation forms `.env.example`,
 * `.env.sample`, `.env.template`, `.env.dist`, `.env.defaults`, `.env.schema`.
 */
export function isSecretEnvName(name: string): boolean {
  const n = name.toLowerCase();
  if (n === '.env' || n === '.envrc') return true;
  if (!n.startsWith('.env.')) return false;
  return !n
    .slice(5)
    .split('.')
    .some((part) => ENV_DOC_SUFFIXES.has(part));
}

/**
 * Why `read_file` may not read `abs`: a secret-bearing environment file (`isSecretEnvName`) in any
 * folder, by its name or its real path's (a symlink to one counts). Undefined otherwise.
 * @param abs absolute path as the tool resolved it.
 */
export function secretEnvReadReason(abs: string): string | undefined {
  const names = [basename(abs), basename(resolveRealPath(abs))];
  const hit = names.find(isSecretEnvName);
  if (!hit) return undefined;
  return (
    `Access denied: ${abs} is a secret-bearing environment file (${hit}); its values would be sent to the model. ` +
    'Read the .env.example (or ask the user for the variable names) instead.'
  );
}
