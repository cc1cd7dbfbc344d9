/**
 * The reconnect schedule of the adapter host: capped exponential backoff with jitter, and the
 * clock it runs on (injectable, so tests advance time by hand).
 *
 * The wait after the n-th consecutive failure is `initialMs · factor^(n-1)`, capped at `maxMs`,
 * then moved by up to ±`jitter` of itself at random and capped at `maxMs` again: with the
 * defaults 1 s, 2 s, 4 s … 32 s, 60 s, 60 s … (each ±20 %, never above 60 s).
 */

/** Timers and time the host uses for its waits. */
export interface HostClock {
  /** Epoch ms. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock (timers unref'd: a pending retry never keeps the process alive). */
export const systemClock: HostClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** Parameters of the schedule. */
export interface BackoffOptions {
  /** Wait after the first failure, ms (default 1,000). */
  initialMs?: number;
  /** Longest wait, ms (default 60,000). */
  maxMs?: number;
  /** Growth per failure (default 2). */
  factor?: number;
  /** Largest share of the wait added or taken at random, 0–1 (default 0.2). */
  jitter?: number;
  /** Uniform random number in [0, 1) (default Math.random). */
  random?: () => number;
}

/** Defaults of the schedule, ms. */
export const BACKOFF_DEFAULTS = { initialMs: 1_000, maxMs: 60_000, factor: 2, jitter: 0.2 } as const;

/**
 * The wait before the next attempt after `failures` consecutive failures (≥ 1), ms.
 */
export function backoffDelayMs(failures: number, opts: BackoffOptions = {}): number {
  const initial = opts.initialMs ?? BACKOFF_DEFAULTS.initialMs;
  const max = opts.maxMs ?? BACKOFF_DEFAULTS.maxMs;
  const factor = opts.factor ?? BACKOFF_DEFAULTS.factor;
  const jitter = Math.min(1, Math.max(0, opts.jitter ?? BACKOFF_DEFAULTS.jitter));
  const random = opts.random ?? Math.random;
  const n = Math.max(1, Math.floor(failures));
  // the exponent is bounded so a long outage never overflows to Infinity
  const base = Math.min(max, initial * factor ** Math.min(n - 1, 64));
  const jittered = base * (1 + jitter * (2 * random() - 1));
  return Math.round(Math.min(max, Math.max(0, jittered)));
}

/**
 * An error an adapter's `connect` throws when retrying cannot help (wrong password, banned):
 * the host then reports the platform `failed` instead of backing off. Any error object with
 * `permanent: true` counts.
 */
export function isPermanentError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { permanent?: unknown }).permanent === true;
}
