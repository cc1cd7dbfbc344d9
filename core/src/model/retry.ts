/**
 * Retry timing of model calls: transient failures retry up to 3 times
 * (`api_max_retries`) with exponential backoff and jitter.
 */

/** Retries of one provider before falling back (not counting key rotations). */
export const MAX_RETRIES = 3;
/** Delay before the first retry, ms; doubles each retry. */
export const BASE_DELAY_MS = 1_000;
/** Largest computed backoff, ms. */
export const MAX_DELAY_MS = 30_000;
/** Largest wait honoured from a `Retry-After` header, ms (a longer ask is capped, not obeyed). */
export const RETRY_AFTER_CAP_MS = 60_000;

/**
 * Milliseconds to wait before retry number `retry` (1-based).
 * Without `retryAfterMs`: "equal jitter" — half of `min(MAX, BASE·2^(retry-1))` plus a random
 * share of the other half (1st retry 0.5–1 s, 2nd 1–2 s, 3rd 2–4 s).
 * With `retryAfterMs` (the provider said how long): that, capped at `RETRY_AFTER_CAP_MS`.
 * @param random source in [0, 1) (injectable for tests).
 */
export function backoffDelay(
  retry: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs)) {
    return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, Math.round(retryAfterMs)));
  }
  const exp = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, retry - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** An injectable sleep: resolves after `ms`, or early (without throwing) when `signal` fires. */
export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real sleep: a timer that an abort cuts short. */
export const abortableSleep: SleepFn = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
