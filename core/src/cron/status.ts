/**
 * The ticker's heartbeat: every tick
 * records `last_tick_at`; only a tick that finished without an exception records
 * `last_success_at`. `hermes cron status` compares them to tell "alive and working" from "alive
 * but every tick fails" from "no ticks at all". Stored in `<home>/cron/tick_status.json`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HermesHome } from '../home/home.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { iso, ms } from './types.js';

/** The heartbeat file's content. Times are ISO. */
export interface TickStatus {
  last_tick_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  /** Who ticked last: `tui-gateway (pid N)`, `hermes cron tick (pid N)`. */
  last_ticker: string | null;
  /** Ticks in a row that failed (0 after a clean tick). */
  consecutive_failures: number;
}

/** The heartbeat file of a home. */
export function tickStatusFile(home: HermesHome): string {
  return join(home.cronDir, 'tick_status.json');
}

const EMPTY: TickStatus = {
  last_tick_at: null,
  last_success_at: null,
  last_error: null,
  last_error_at: null,
  last_ticker: null,
  consecutive_failures: 0,
};

/** Reads the heartbeat; an absent or unreadable file is "never ticked". */
export function readTickStatus(home: HermesHome): TickStatus {
  try {
    return { ...EMPTY, ...(JSON.parse(readFileSync(tickStatusFile(home), 'utf8')) as Partial<TickStatus>) };
  } catch {
    return { ...EMPTY };
  }
}

function write(home: HermesHome, s: TickStatus): void {
  writeFileAtomic(tickStatusFile(home), `${JSON.stringify(s, null, 2)}\n`, 0o600);
}

/** Records the start of a tick. Never throws (a heartbeat must not break the tick). */
export function recordHeartbeat(home: HermesHome, now: number, ticker: string): void {
  try {
    write(home, { ...readTickStatus(home), last_tick_at: iso(now), last_ticker: ticker });
  } catch {
    /* best effort */
  }
}

/** Records how a tick ended: clean (`error` undefined) or failed. Never throws. */
export function recordTickEnd(home: HermesHome, now: number, error?: string): void {
  try {
    const s = readTickStatus(home);
    if (error === undefined) {
      const prev = ms(s.last_success_at);
      write(home, {
        ...s,
        last_success_at: Number.isFinite(prev) && prev > now ? s.last_success_at : iso(now),
        consecutive_failures: 0,
      });
    } else {
      write(home, {
        ...s,
        last_error: error.slice(0, 2000),
        last_error_at: iso(now),
        consecutive_failures: s.consecutive_failures + 1,
      });
    }
  } catch {
    /* best effort */
  }
}

/** The verdict `hermes cron status` prints. */
export type TickHealth = 'never' | 'working' | 'failing' | 'stale';

/**
 * Judges the heartbeat at `now`.
 * - `never`: no tick recorded;
 * - `stale`: no tick for more than `staleAfterMs` (default 3 min: the daemon ticks every 60 s);
 * - `failing`: ticks happen, but the last one did not succeed (every tick since
 *   `last_success_at` failed);
 * - `working`: no tick failed since the last success (a first tick still running counts).
 */
export function judgeTickHealth(s: TickStatus, now: number, staleAfterMs = 3 * 60_000): TickHealth {
  const tick = ms(s.last_tick_at);
  if (!Number.isFinite(tick)) return 'never';
  if (now - tick > staleAfterMs) return 'stale';
  const ok = ms(s.last_success_at);
  const err = ms(s.last_error_at);
  if (Number.isFinite(err) && (!Number.isFinite(ok) || err >= ok)) return 'failing';
  return 'working';
}
