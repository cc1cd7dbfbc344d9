/**
 * Taking a session's one-writer lock in the daemon when its last holder was killed
 * (`kill -9` mid-turn, then a new daemon starts). `acquireSessionLock` (core/src/state/session-lock.ts) treats a
 * lock as stale only once its holder stopped refreshing it for `SESSION_LOCK_STALE_MS` (10 s), so a
 * daemon restarted right after a `kill -9` found the sessions of its predecessor "in use by
 * tui-gateway (pid <dead pid>)": crash recovery skipped them and every attach failed for 10 s.
 * The lock's owner note names the holder's pid; when that process is gone (or a zombie) on this
 * machine, the lock directory is removed and taken at once.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { HermesHome } from '@hermes/core/home';
import {
  acquireSessionLock,
  SessionLockedError,
  type SessionLock,
  type SessionLockOwner,
} from '@hermes/core/state';
import { isProcessAlive, processStartTime } from '@hermes/client';

/** True when the recorded holder is certainly not running here (gone, or a zombie). */
export function holderIsGone(holder: SessionLockOwner | undefined): boolean {
  if (!holder || holder.pid === process.pid) return false;
  if (!isProcessAlive(holder.pid)) return true;
  // A zombie still answers signal 0; /proc says it no longer runs (where /proc works).
  return processStartTime(holder.pid) === undefined && processStartTime(process.pid) !== undefined;
}

/**
 * `acquireSessionLock`, breaking the lock first when its recorded holder is gone.
 * @throws SessionLockedError when a live process holds it (or no owner note says who).
 */
export function takeSessionLock(home: HermesHome, sessionId: string, owner: string): SessionLock {
  try {
    return acquireSessionLock(home, sessionId, owner);
  } catch (err) {
    if (!(err instanceof SessionLockedError) || !holderIsGone(err.holder)) throw err;
    // proper-lockfile's lock is the directory `<target>.lock` next to `<id>.lock`.
    rmSync(join(home.sessionsDir, 'locks', `${sessionId}.lock.lock`), { recursive: true, force: true });
    return acquireSessionLock(home, sessionId, owner);
  }
}
