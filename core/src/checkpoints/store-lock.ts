/**
 * The checkpoint store's cross-process lock: proper-lockfile's `store.lock` folder plus an owner
 * record inside it (`owner.json`: pid and process start time), so a lock left by a process that
 * died (`kill -9` mid-snapshot) is taken over at once instead of after proper-lockfile's
 * mtime-based staleness (`STALE_LOCK_MS`). Every wait — behind another session of this process or
 * behind another process — ends when the caller's abort signal fires.
 *
 * Rules:
 * - The owner record is written right after the lock folder is created and removed right before
 *   it is released (proper-lockfile removes the folder with rmdir, which needs it empty).
 * - A lock whose owner record names a pid that no longer runs, or runs with another start time
 *   (the pid was reused), is removed and the lock taken again at once.
 * - A lock without an owner record (being created, or left by an older hermes) counts as live
 *   until proper-lockfile finds it stale by mtime.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Age of an unrefreshed lock folder after which proper-lockfile takes it over, ms. */
export const STALE_LOCK_MS = 120_000;
/** How often the holder refreshes the lock folder's mtime, ms. */
export const LOCK_UPDATE_MS = 10_000;
/** Pause between attempts while a live process holds the lock, ms (random in [min, max)). */
export const LOCK_RETRY_MIN_MS = 50;
/** See `LOCK_RETRY_MIN_MS`. */
export const LOCK_RETRY_MAX_MS = 200;

/** What `owner.json` holds. */
export interface LockOwner {
  pid: number;
  /** The process's start time as the kernel reports it (`/proc/<pid>/stat` field 22), if known. */
  start?: string;
}

/** Thrown when the caller's signal aborts a wait for the lock. */
export class LockWaitAbortedError extends Error {
  readonly code = 'ABORT_ERR';
  constructor(what: string) {
    super(`waiting for ${what} was interrupted`);
    this.name = 'AbortError';
  }
}

/** The start time of process `pid` (clock ticks since boot), or undefined where /proc is absent. */
export function processStart(pid: number | 'self'): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** True when the process the owner record names has exited (or its pid now names another one). */
export function ownerIsDead(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
  }
  if (owner.start === undefined) return false;
  const now = processStart(owner.pid);
  return now !== undefined && now !== owner.start;
}

const ownerFile = (lockDir: string): string => join(lockDir, 'owner.json');

function readOwner(lockDir: string): LockOwner | undefined {
  try {
    const o = JSON.parse(readFileSync(ownerFile(lockDir), 'utf8')) as LockOwner;
    return Number.isInteger(o.pid) && o.pid > 0 ? o : undefined;
  } catch {
    return undefined;
  }
}

/** Sleeps `ms`, or rejects with LockWaitAbortedError as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new LockWaitAbortedError(what));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new LockWaitAbortedError(what));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves with `p`, or rejects with LockWaitAbortedError when `signal` aborts first. */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new LockWaitAbortedError(what));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new LockWaitAbortedError(what));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Takes the cross-process lock `lockDir` guarding `target` (see the module comment).
 * @returns the release function (removes the owner record, then the lock).
 * @throws LockWaitAbortedError when `signal` aborts the wait; other errors of proper-lockfile.
 */
export async function acquireStoreLock(
  target: string,
  lockDir: string,
  signal?: AbortSignal,
): Promise<() => Promise<void>> {
  const { default: lockfile } = await import('proper-lockfile');
  const what = `the checkpoint store lock ${lockDir}`;
  for (;;) {
    if (signal?.aborted) throw new LockWaitAbortedError(what);
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(target, {
        lockfilePath: lockDir,
        realpath: false,
        stale: STALE_LOCK_MS,
        update: LOCK_UPDATE_MS,
        retries: 0,
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      const owner = readOwner(lockDir);
      if (owner && ownerIsDead(owner)) {
        // the holder died: its lock goes now (re-read so a fresh holder's lock is left alone)
        const again = readOwner(lockDir);
        if (again && again.pid === owner.pid && again.start === owner.start)
          rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      const pause = LOCK_RETRY_MIN_MS + Math.random() * (LOCK_RETRY_MAX_MS - LOCK_RETRY_MIN_MS);
      await abortableSleep(pause, signal, what);
      continue;
    }
    const start = processStart('self');
    const me: LockOwner = { pid: process.pid, ...(start ? { start } : {}) };
    try {
      writeFileSync(ownerFile(lockDir), `${JSON.stringify(me)}\n`);
    } catch {
      /* without the record the lock still works; only its dead-owner takeover waits for mtime */
    }
    return async () => {
      rmSync(ownerFile(lockDir), { force: true });
      await release();
    };
  }
}
