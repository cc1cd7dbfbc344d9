/**
 * The light half of recognising a home of the Python Hermes (node built-ins only, so `hermes tui`
 * can use it without loading SQLite): the SQLite header's `user_version`, and the one-time notice
 * on first start that names `hermes migrate` when such a home seems to be at `~/.hermes`.
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const MAGIC = 'SQLite format 3\u0000';

/**
 * The SQLite header's `user_version` (bytes 60–63), or undefined when the file is missing, short
 * or not SQLite.
 */
export function headerUserVersion(file: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(100);
    if (readSync(fd, buf, 0, 100, 0) < 100 || buf.toString('latin1', 0, 16) !== MAGIC) return undefined;
    return buf.readUInt32BE(60);
  } finally {
    closeSync(fd);
  }
}

/** Shortens a path under the user's home to `~/…` for messages. */
export function tildePath(path: string, home: string = homedir()): string {
  const p = resolve(path);
  return p === home ? '~' : p.startsWith(`${home}/`) ? `~${p.slice(home.length)}` : p;
}

/** The marker of the one-time notice below, in this hermes's root. */
export const OFFER_MARKER = '.migrate-offer-shown';

/**
 * The one-time first-start notice: when this root has no sessions and no config yet and a home
 * of the Python Hermes seems to be at `~/.hermes` (its usual place), a short text naming
 * `hermes migrate`; undefined otherwise. Showing it records the marker, so it comes once.
 * Nothing is migrated without the user running the command.
 */
export function migrateOffer(root: string, userHome: string = homedir()): string | undefined {
  const r = resolve(root);
  const candidate = join(userHome, '.hermes');
  if (resolve(candidate) === r) return undefined;
  if (
    existsSync(join(r, 'state.db')) ||
    existsSync(join(r, 'config.yaml')) ||
    existsSync(join(r, OFFER_MARKER))
  )
    return undefined;
  if (headerUserVersion(join(candidate, 'state.db')) !== 0) return undefined;
  try {
    mkdirSync(r, { recursive: true });
    writeFileSync(join(r, OFFER_MARKER), `${new Date().toISOString()}\n`, { mode: 0o600 });
  } catch {
    return undefined; // a notice that cannot be recorded would come back every start
  }
  const c = tildePath(candidate, userHome);
  return (
    `A home of the Python Hermes seems to be at ${c}. \`hermes migrate --from ${c}\` brings its sessions, ` +
    `memories, skills, cron jobs (paused) and settings here, leaving ${c} unchanged; ` +
    `\`hermes migrate --from ${c} --dry-run\` shows what would come. (Shown once.)`
  );
}
