/**
 * Whether some process works in a profile right now: the daemon and `hermes chat` hold
 * `<home>/sessions/locks/<id>.lock` (core/src/state/session-lock.ts) while a session is live.
 * Renaming or deleting a profile under them would strand their open database, so both refuse.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import type { HermesHome } from '../home/home.js';
import { readSessionLockOwner, SESSION_LOCK_STALE_MS, type SessionLockOwner } from '../state/session-lock.js';
import { ProfileError } from './errors.js';

/** One session lock held by a live process. */
export interface HeldSession {
  sessionId: string;
  holder: SessionLockOwner | undefined;
}

/** The sessions of a profile whose lock is held and fresh (not stale after a crash). */
export function heldSessions(home: HermesHome): HeldSession[] {
  const dir = join(home.sessionsDir, 'locks');
  if (!existsSync(dir)) return [];
  const held: HeldSession[] = [];
  for (const name of readdirSync(dir)) {
    const m = /^(.+)\.lock$/.exec(name);
    if (!m || name.endsWith('.lock.lock')) continue;
    let locked: boolean;
    try {
      locked = lockfile.checkSync(join(dir, name), { stale: SESSION_LOCK_STALE_MS, realpath: false });
    } catch {
      locked = false;
    }
    if (locked) held.push({ sessionId: m[1]!, holder: readSessionLockOwner(home, m[1]!) });
  }
  return held;
}

/**
 * @throws ProfileError `EBUSY` naming the profile and the holder when a session of it is live.
 * @param what the refused operation, e.g. `renamed`.
 */
export function refuseBusy(home: HermesHome, what: string): void {
  const held = heldSessions(home);
  if (held.length === 0) return;
  const h = held[0]!;
  const who = !h.holder
    ? 'another process'
    : h.holder.owner.includes(`pid ${h.holder.pid}`)
      ? h.holder.owner
      : `${h.holder.owner} (pid ${h.holder.pid})`;
  throw new ProfileError(
    'EBUSY',
    `profile "${home.profile}" cannot be ${what}: session ${h.sessionId} is in use by ${who}` +
      (held.length > 1 ? ` (and ${held.length - 1} more)` : '') +
      '; end it (or stop the daemon: hermes gateway stop) first',
  );
}
