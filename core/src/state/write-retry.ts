/**
 * Application-level retry for writes contended by other processes.
 *
 * SQLite's own busy handler sleeps on a fixed schedule, so many waiters wake together, collide
 * and fail together (a convoy). Writers therefore use a short `busy_timeout`
 * (`WRITER_BUSY_TIMEOUT_MS`) and, when SQLite still reports SQLITE_BUSY/LOCKED, sleep a random
 * interval and try again until a time budget is spent: short jitter for the first 2 s (contenders
 * spread out quickly), longer after that. Budgets are time, not attempts: a transcript write
 * (losing it ruins the user's turn) waits up to 60 s, bookkeeping up to 20 s.
 *
 * better-sqlite3 is synchronous, so the wait blocks the calling thread (as SQLite's own busy
 * handler does); it only happens under contention.
 */
import { isLockError } from './errors.js';

/** `PRAGMA busy_timeout` of writer connections, ms. Short on purpose (see above). */
export const WRITER_BUSY_TIMEOUT_MS = 250;
/** `PRAGMA busy_timeout` of read-only connections, ms (they have no application-level retry). */
export const READER_BUSY_TIMEOUT_MS = 5_000;
/** Budget of transcript writes (messages, session rows), ms. */
export const TRANSCRIPT_WRITE_BUDGET_MS = 60_000;
/** Budget of bookkeeping writes (usage, titles, state, checkpoints), ms. */
export const BOOKKEEPING_WRITE_BUDGET_MS = 20_000;
/** Length of the fast-retry phase, ms. */
export const FAST_PHASE_MS = 2_000;

/** Options of `withWriteRetry`; the injectable parts exist for tests. */
export interface RetryOptions {
  /** Total time allowed, ms, measured from the first attempt. */
  budgetMs: number;
  /** Clock in ms (default `performance.now`). */
  now?: () => number;
  /** Sleeper (default `sleepSync`). */
  sleep?: (ms: number) => void;
  /** Random source in [0, 1) (default `Math.random`). */
  random?: () => number;
}

/** Thrown when the budget is spent; `cause` is the last lock error. */
export class WriteBudgetExceededError extends Error {
  readonly code = 'SQLITE_BUSY';
  constructor(
    readonly attempts: number,
    readonly elapsedMs: number,
    cause: unknown,
  ) {
    super(`database stayed locked by other writers for ${Math.round(elapsedMs)} ms (${attempts} attempts)`, {
      cause,
    });
    this.name = 'WriteBudgetExceededError';
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` milliseconds (Atomics.wait; allowed on Node's main thread). */
export function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(sleeper, 0, 0, ms);
}

/**
 * The pause before the next attempt, ms: uniform in [10, 100) during the first `FAST_PHASE_MS`
 * of contention, then uniform in [100, 500).
 * @param elapsedMs time since the first attempt.
 */
export function jitterDelayMs(elapsedMs: number, random: () => number = Math.random): number {
  return elapsedMs < FAST_PHASE_MS ? 10 + random() * 90 : 100 + random() * 400;
}

/**
 * Runs `fn` (one complete write transaction) and retries it after a random pause while it fails
 * with a lock error and the budget lasts. Any other error is rethrown at once. `fn` must be
 * safe to repeat: a failed transaction has been rolled back.
 * @throws WriteBudgetExceededError when still locked at the end of the budget.
 */
export function withWriteRetry<T>(fn: () => T, opts: RetryOptions): T {
  const now = opts.now ?? (() => performance.now());
  const sleep = opts.sleep ?? sleepSync;
  const random = opts.random ?? Math.random;
  const start = now();
  let attempts = 0;
  for (;;) {
    attempts++;
    try {
      return fn();
    } catch (err) {
      if (!isLockError(err)) throw err;
      const elapsed = now() - start;
      const remaining = opts.budgetMs - elapsed;
      if (remaining <= 0) throw new WriteBudgetExceededError(attempts, elapsed, err);
      sleep(Math.min(jitterDelayMs(elapsed, random), remaining));
    }
  }
}
