/**
 * One writer per session: a process that runs turns in a
 * session holds `<home>/sessions/locks/<id>.lock` (proper-lockfile: an mkdir lock refreshed
 * while held, taken over when stale after a crash) plus an owner note naming who holds it, so a
 * second process gets a clear error instead of an interleaved transcript.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import type { HermesHome } from '../home/home.js';

/** Who holds a session lock. */
export interface SessionLockOwner {
  /** `tui-gateway`, `hermes chat` … */
  owner: string;
  pid: number;
  since: number;
}

/** Thrown when another live process holds the session. */
export class SessionLockedError extends Error {
  constructor(
    readonly sessionId: string,
    readonly holder: SessionLockOwner | undefined,
  ) {
    super(
      `session ${sessionId} is in use by ${holder ? `${holder.owner} (pid ${holder.pid})` : 'another process'}; ` +
        'attach to it there, or wait until its turn ends',
    );
    this.name = 'SessionLockedError';
  }
}

/** A held lock; `release()` is idempotent. */
export interface SessionLock {
  release(): void;
}

/** Lock staleness, ms: a holder that stopped refreshing for this long (killed) loses the lock. */
export const SESSION_LOCK_STALE_MS = 10_000;

function paths(home: HermesHome, sessionId: string): { target: string; owner: string } {
  const dir = join(home.sessionsDir, 'locks');
  mkdirSync(dir, { recursive: true });
  return { target: join(dir, `${sessionId}.lock`), owner: join(dir, `${sessionId}.owner.json`) };
}

/** Reads the owner note of a session lock, if any. */
export function readSessionLockOwner(home: HermesHome, sessionId: string): SessionLockOwner | undefined {
  try {
    return JSON.parse(readFileSync(paths(home, sessionId).owner, 'utf8')) as SessionLockOwner;
  } catch {
    return undefined;
  }
}

/**
 * Takes the session's lock without waiting.
 * @param owner a short name of the holder for error messages.
 * @throws SessionLockedError when another live process holds it.
 */
export function acquireSessionLock(home: HermesHome, sessionId: string, owner: string): SessionLock {
  const p = paths(home, sessionId);
  writeFileSync(p.target, '', { flag: 'a' });
  let releaseFn: () => void;
  try {
    releaseFn = lockfile.lockSync(p.target, {
      stale: SESSION_LOCK_STALE_MS,
      realpath: false,
      onCompromised: () => {
        /* another process took over a stale lock: nothing to do but stop refreshing */
      },
    } as Parameters<typeof lockfile.lockSync>[1]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new SessionLockedError(sessionId, readSessionLockOwner(home, sessionId));
    }
    throw err;
  }
  writeFileSync(
    p.owner,
    JSON.stringify({ owner, pid: process.pid, since: Date.now() } satisfies SessionLockOwner),
  );
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      rmSync(p.owner, { force: true });
      try {
        releaseFn();
      } catch {
        /* already released or compromised */
      }
    },
  };
}
