/**
 * The light half of recognising a home of the Python Hermes (node built-ins only, so `hermes tui`
 * can use it without loading SQLite): the SQLite header's `user_version`, and the one-time notice
 * on first start that names `hermes migrate` when such a home seems to be at `~/.hermes`.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
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

const WAL_HEADER = 32;
const WAL_FRAME_HEADER = 24;

/**
 * The `user_version` that page 1 has in `file`'s `-wal` (the newest committed copy of page 1 in
 * the log), or undefined when there is no log, it holds no committed page 1, or it is not a WAL.
 * Frames are checked by the salts of the log's header (not by checksum); node built-ins only.
 */
export function walUserVersion(file: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(`${file}-wal`, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(WAL_HEADER);
    if (readSync(fd, head, 0, WAL_HEADER, 0) < WAL_HEADER) return undefined;
    const magic = head.readUInt32BE(0);
    if (magic !== 0x377f0682 && magic !== 0x377f0683) return undefined;
    const pageSize = head.readUInt32BE(8) === 1 ? 65536 : head.readUInt32BE(8);
    if (pageSize < 512) return undefined;
    const salts = head.subarray(16, 24);
    const frame = Buffer.alloc(WAL_FRAME_HEADER);
    const version = Buffer.alloc(4);
    let pending: number | undefined; // page 1 in the open transaction
    let committed: number | undefined;
    for (let at = WAL_HEADER; at + WAL_FRAME_HEADER + pageSize <= size; at += WAL_FRAME_HEADER + pageSize) {
      if (readSync(fd, frame, 0, WAL_FRAME_HEADER, at) < WAL_FRAME_HEADER) break;
      if (!frame.subarray(8, 16).equals(salts)) break; // a frame of an earlier log generation
      if (frame.readUInt32BE(0) === 1) {
        if (readSync(fd, version, 0, 4, at + WAL_FRAME_HEADER + 60) < 4) break;
        pending = version.readUInt32BE(0);
      }
      if (frame.readUInt32BE(4) !== 0 && pending !== undefined) {
        committed = pending; // a commit frame ends the transaction
        pending = undefined;
      }
    }
    return committed;
  } finally {
    closeSync(fd);
  }
}

/**
 * The database's `user_version` as a reader would see it, without SQLite: page 1's newest
 * committed copy in the `-wal` when the log holds one (a database whose last writer never wrote
 * the log back, e.g. after a `kill -9`, still shows 0 in the file's header), else the header's.
 * Undefined when the file is missing, short or not SQLite.
 */
export function userVersion(file: string): number | undefined {
  const header = headerUserVersion(file);
  if (header === undefined) return undefined;
  return walUserVersion(file) ?? header;
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
  if (userVersion(join(candidate, 'state.db')) !== 0) return undefined;
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
