/**
 * One daemon per root:
 * an exclusive pid lock at `<root>/tui-gateway.lock`.
 *
 * Taking it: the owner record (`{pid, proc_start, started_at}` JSON) is written to a private temp
 * file and hard-linked to the lock path, which fails atomically when the lock exists, so the lock
 * file always holds a complete record. A lock whose owner is dead (pid gone, or pid reused: the
 * start time differs) is stale; it is broken under a second, short-lived O_EXCL "breaker" file and
 * only if it still holds the record seen as stale — so of two starters racing over a stale lock,
 * exactly one wins and the other sees a live owner.
 */
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isSameProcessAlive, selfIdentity, type ProcessIdentity } from '@hermes/client';

/** The record in the lock file. */
export interface LockOwner extends ProcessIdentity {
  /** ISO time the lock was taken. */
  started_at: string;
}

/** The lock is held by a live process. */
export class DaemonLockedError extends Error {
  constructor(
    /** Path of the lock file. */
    readonly file: string,
    /** Its live owner. */
    readonly owner: LockOwner,
  ) {
    super(`${file} is held by a running daemon (pid ${owner.pid})`);
    this.name = 'DaemonLockedError';
  }
}

/** A held lock. */
export interface DaemonLock {
  readonly file: string;
  readonly owner: LockOwner;
  /** Removes the lock file if it still holds our record. Idempotent; never throws. */
  release(): void;
}

/** A breaker file older than this is left over from a starter that died mid-break, ms. */
const BREAKER_STALE_MS = 10_000;
/** An empty or unreadable lock younger than this may be mid-write (no hard links), ms. */
const YOUNG_LOCK_MS = 5_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function readLock(file: string): { text: string; owner?: LockOwner } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    if (typeof v.pid === 'number' && Number.isInteger(v.pid)) {
      return {
        text,
        owner: { pid: v.pid, proc_start: v.proc_start, started_at: String(v.started_at ?? '') },
      };
    }
  } catch {
    /* garbage: no owner */
  }
  return { text };
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Creates `file` with `text` only if it does not exist. @returns false on EEXIST. */
function createExclusive(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    // No hard links on this file system: O_EXCL create, then write (readers treat a young empty file as busy).
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
    writeSync(fd, text);
    closeSync(fd);
    return true;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
  }
}

/** Removes `file` if it still contains `seen`, under the breaker. @returns true when it tried. */
async function breakStale(file: string, seen: string): Promise<void> {
  const breaker = `${file}.break`;
  try {
    writeFileSync(breaker, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if (ageMs(breaker) > BREAKER_STALE_MS) {
      try {
        unlinkSync(breaker);
      } catch {
        /* someone else removed it */
      }
    }
    await sleep(10 + Math.random() * 20);
    return;
  }
  try {
    const now = readLock(file);
    if (now && now.text === seen) unlinkSync(file);
  } finally {
    try {
      unlinkSync(breaker);
    } catch {
      /* gone */
    }
  }
}

/**
 * Takes the daemon lock for this process.
 * @param file the lock path (`HermesHome.daemonLockFile`); its folder must exist.
 * @param timeoutMs how long to keep retrying through transient states (default 10 s).
 * @throws DaemonLockedError when a live process holds it; Error when it cannot be taken in time.
 */
export async function acquireDaemonLock(file: string, timeoutMs = 10_000): Promise<DaemonLock> {
  const owner: LockOwner = { ...selfIdentity(), started_at: new Date().toISOString() };
  const text = `${JSON.stringify(owner)}\n`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (createExclusive(file, text)) {
      let released = false;
      return {
        file,
        owner,
        release: () => {
          if (released) return;
          released = true;
          try {
            if (readLock(file)?.text === text) unlinkSync(file);
          } catch {
            /* best effort */
          }
        },
      };
    }
    const seen = readLock(file);
    if (seen === undefined) continue; // vanished between our attempt and the read: try again
    if (seen.owner && isSameProcessAlive(seen.owner)) throw new DaemonLockedError(file, seen.owner);
    if (Date.now() > deadline)
      throw new Error(`could not take the daemon lock ${file} within ${timeoutMs} ms`);
    if (!seen.owner && ageMs(file) < YOUNG_LOCK_MS && seen.text === '') {
      await sleep(20);
      continue;
    }
    await breakStale(file, seen.text);
  }
}

/** Reads the lock's owner; undefined when there is no lock or it holds no readable record. */
export function readLockOwner(file: string): LockOwner | undefined {
  return readLock(file)?.owner;
}
