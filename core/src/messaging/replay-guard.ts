/**
 * Replay protection shared by platforms that authenticate each request (the webhook's
 * signatures): a key is claimed once and refused until it expires. The daemon backs it with the
 * profile's state.db (`platform_replay_keys`), so a request captured before a restart cannot be
 * replayed after it; `MemoryReplayGuard` serves tests and adapters used without the daemon.
 */

/** Remembers keys accepted once until they expire. */
export interface ReplayGuard {
  /**
   * Claims `key` until `expiresAt` (epoch ms); keys expired at `now` (default: the clock) are
   * forgotten first.
   * @returns true on first sight (the caller may accept), false when the key is already claimed.
   */
  claim(key: string, expiresAt: number, now?: number): boolean;
}

/** A replay guard in memory (lost with the process). */
export class MemoryReplayGuard implements ReplayGuard {
  private readonly keys = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  claim(key: string, expiresAt: number, now = this.now()): boolean {
    for (const [k, until] of this.keys) if (until <= now) this.keys.delete(k);
    if (this.keys.has(key)) return false;
    this.keys.set(key, expiresAt);
    return true;
  }
}

/** The part of the platform tables (state/platform-tables.ts) a stored guard needs. */
export interface ReplayKeyStore {
  claimReplayKey(platform: string, key: string, expiresAt: number, now?: number): boolean;
}

/** A replay guard kept in state.db for one platform. */
export function storedReplayGuard(store: ReplayKeyStore, platform: string): ReplayGuard {
  return { claim: (key, expiresAt, now) => store.claimReplayKey(platform, key, expiresAt, now) };
}
