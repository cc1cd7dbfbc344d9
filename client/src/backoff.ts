/** Capped exponential backoff with jitter, for reconnecting to the daemon. */

/** Backoff tuning. */
export interface BackoffOptions {
  /** Delay before the first retry, ms (default 250). */
  initialMs?: number;
  /** Upper bound of any delay, ms (default 10 000). */
  maxMs?: number;
  /** Growth per attempt (default 2). */
  factor?: number;
  /** Fraction of the delay that is randomised, 0…1 (default 0.5: delay × [0.5, 1]). */
  jitter?: number;
}

/**
 * Delay before retry number `attempt` (0-based): `min(max, initial × factor^attempt)`, of which a
 * `jitter` fraction is random, so many clients that lost the same daemon do not retry in step.
 * @param random a source in [0, 1) (injectable for tests).
 */
export function backoffDelay(
  attempt: number,
  opts: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const initial = opts.initialMs ?? 250;
  const max = opts.maxMs ?? 10_000;
  const factor = opts.factor ?? 2;
  const jitter = Math.min(1, Math.max(0, opts.jitter ?? 0.5));
  const base = Math.min(max, initial * Math.pow(factor, Math.max(0, attempt)));
  return Math.round(base * (1 - jitter) + base * jitter * random());
}
