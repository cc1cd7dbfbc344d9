/**
 * The home's `.env`: API keys and other secrets.
 *
 * Parsed into a per-home map with dotenv's parser and never copied into `process.env`, so two
 * profiles served by one daemon never see each other's keys. Written with mode 0600.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { parse } from 'dotenv';
import type { HermesHome } from '../home/home.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { editEnvFile } from './env-file.js';

/** Secrets of one home: name → value. Read-only view; use `setSecret` to change the file. */
export type Secrets = Readonly<Record<string, string>>;

/**
 * Reads `<home>/.env`. A missing file is an empty map. Tightens the mode to 0600 when the file is
 * readable by others.
 */
export function loadSecrets(home: HermesHome): Secrets {
  const file = home.envFile;
  if (!existsSync(file)) return {};
  try {
    // only when needed: a chmod changes the file's ctime, which the daemon watches (stat-on-use)
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  } catch {
    /* not ours to change; still readable */
  }
  return Object.freeze(parse(readFileSync(file, 'utf8')));
}

/**
 * Looks a key up in the home's secrets first, then in the process environment (keys exported by
 * the user's shell apply to every profile; `.env` keys only to their own).
 */
export function lookupSecret(
  secrets: Secrets,
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const v = secrets[name] ?? env[name];
  return v && v.trim() !== '' ? v : undefined;
}

/**
 * Sets (or with `value === undefined` removes) one secret in `<home>/.env`, written atomically
 * with mode 0600 through `editEnvFile`: the value reads back exactly (any printable character,
 * quotes, `#`, `$`, backslashes, surrounding spaces), every other line is kept byte for byte, and
 * an existing variable keeps its place in the file. A symlinked `.env` is written at its target.
 * Concurrent calls from several processes are serialised by a lock file (`<.env>.lock`).
 * @throws EnvValueError when `name` is not a valid variable name or the value cannot be written
 *   to read back unchanged (a NUL …); the file is left as it was.
 */
export function setSecret(home: HermesHome, name: string, value: string | undefined): void {
  // a `.env` that is a symlink (kept in a dotfiles folder) is written where it points: replacing
  // the link itself would leave its target stale and the link gone
  const file = existsSync(home.envFile) ? realpathSync(home.envFile) : home.envFile;
  withEnvLock(file, () => {
    const bytes = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
    writeFileAtomic(file, editEnvFile(bytes, name, value), 0o600);
  });
}

/** Longest wait for another process's `.env` edit, ms; a lock older than this is taken over. */
export const ENV_LOCK_WAIT_MS = 5_000;

/**
 * Runs `fn` holding `<file>.lock` (created exclusively, removed after), so two processes setting
 * different variables at once (the daemon's `secrets.set`, `hermes auth add`) both land: each
 * reads the file inside the lock. A lock left by a crashed process is taken over once it is
 * older than `ENV_LOCK_WAIT_MS`.
 * @throws Error when the lock stays held longer than that by a live holder.
 */
function withEnvLock(file: string, fn: () => void): void {
  const lock = `${file}.lock`;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + ENV_LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > ENV_LOCK_WAIT_MS) {
        rmSync(lock, { force: true }); // left by a process that died: take it over
        continue;
      }
    } catch {
      continue; // released meanwhile
    }
    if (Date.now() > deadline) throw new Error(`${file} is being changed by another process (${lock})`);
    Atomics.wait(pause, 0, 0, 10 + Math.floor(Math.random() * 20)); // a short synchronous pause
  }
  try {
    fn();
  } finally {
    rmSync(lock, { force: true });
  }
}
