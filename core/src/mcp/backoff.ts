/**
 * The life of one MCP server connection: starting → ready, and what happens when it drops.
 *
 * - The first start that fails leaves the server `failed` (a config problem: wrong command, bad
 *   URL, a crash at start-up); `/mcp reload` tries again.
 * - A server that was ready and drops (a stdio process exits, an HTTP server stops answering) is
 *   restarted after a capped exponential delay: 0.5 s, 1 s, 2 s … at most 30 s (`BackoffPolicy`).
 *   Each failed restart doubles the delay; after `maxAttempts` failed restarts in a row it is
 *   `failed` ("gave up after N restarts"). A connection that stayed ready for `stableMs` starts
 *   the count again from 1, so a server that crashes once a day always restarts after 0.5 s.
 * - `restartNow` skips the wait (an HTTP session the server no longer knows, a tool call while
 *   waiting); it counts as an attempt all the same.
 * - Time comes from an injected `Clock`, so the schedule is tested without real waiting.
 */

/** Timer functions the state machine uses (tests inject a fake one). */
export interface Clock {
  /** Epoch ms. */
  now(): number;
  /** Runs `fn` after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock (timers are unref'd: a pending restart never keeps a process alive). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** How restarts are spaced. */
export interface BackoffPolicy {
  /** Delay before the first restart, ms. */
  initialMs: number;
  /** Longest delay, ms. */
  maxMs: number;
  /** Growth of the delay per failed attempt. */
  factor: number;
  /** Failed restarts in a row after which the server is `failed`. */
  maxAttempts: number;
  /** A connection ready at least this long resets the attempt count, ms. */
  stableMs: number;
}

/** 0.5 s → 30 s, doubling; give up after 10 failed restarts in a row (about 3.5 min). */
export const DEFAULT_BACKOFF: BackoffPolicy = {
  initialMs: 500,
  maxMs: 30_000,
  factor: 2,
  maxAttempts: 10,
  stableMs: 60_000,
};

/** The delay before restart attempt `attempt` (1-based), ms. */
export function backoffDelay(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const n = Math.max(1, Math.floor(attempt));
  return Math.min(policy.maxMs, policy.initialMs * policy.factor ** (n - 1));
}

/** Where a connection is. `attempt` is 0 for the first start, then the restart number. */
export type LifePhase =
  | { state: 'starting'; attempt: number }
  | { state: 'ready'; since: number; attempt: number }
  | { state: 'backoff'; attempt: number; retryAt: number; reason: string }
  | { state: 'failed'; reason: string }
  | { state: 'stopped' };

/** Options of `ServerLife`. */
export interface ServerLifeOptions {
  /** One connection attempt: resolves once the server is ready, rejects with the reason. */
  open: () => Promise<void>;
  clock?: Clock;
  policy?: BackoffPolicy;
  /** Told after every change of phase. */
  onChange?: (phase: LifePhase) => void;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The restart state machine of one server. */
export class ServerLife {
  private current: LifePhase = { state: 'starting', attempt: 0 };
  private timer: unknown;
  private attempt: Promise<void> | undefined;
  /** Changes on `stop()`, so an attempt that resolves afterwards is ignored. */
  private epoch = 0;
  private readonly clock: Clock;
  private readonly policy: BackoffPolicy;

  constructor(private readonly opts: ServerLifeOptions) {
    this.clock = opts.clock ?? systemClock;
    this.policy = opts.policy ?? DEFAULT_BACKOFF;
  }

  /** The phase now. */
  get phase(): LifePhase {
    return this.current;
  }

  private set(phase: LifePhase): void {
    this.current = phase;
    try {
      this.opts.onChange?.(phase);
    } catch {
      /* a listener never breaks the state machine */
    }
  }

  /** The first start; a failure is final (`failed`). Resolves when ready or failed. */
  start(): Promise<void> {
    return this.run(0);
  }

  /**
   * The ready connection dropped: schedule a restart (or give up). Ignored unless ready.
   * @param reason why it dropped, shown while backing off.
   */
  lost(reason: string): void {
    const p = this.current;
    if (p.state !== 'ready') return;
    const stable = this.clock.now() - p.since >= this.policy.stableMs;
    this.schedule((stable ? 0 : p.attempt) + 1, reason);
  }

  /**
   * Try at once instead of waiting (or, ready, reconnect now: the session is gone). Joins an
   * attempt already running. Resolves when that attempt settled; never rejects.
   */
  restartNow(reason: string): Promise<void> {
    const p = this.current;
    if (p.state === 'starting') return this.settled();
    if (p.state === 'failed' || p.state === 'stopped') return Promise.resolve();
    this.cancelTimer();
    if (p.state === 'backoff') return this.run(p.attempt, reason);
    const stable = this.clock.now() - p.since >= this.policy.stableMs;
    return this.run((stable ? 0 : p.attempt) + 1, reason);
  }

  /** Resolves when no attempt is running (at once when none is). Never rejects. */
  settled(): Promise<void> {
    return this.attempt ?? Promise.resolve();
  }

  /** Stops for good: no more attempts; a running one's result is ignored. */
  stop(): void {
    this.cancelTimer();
    this.epoch++;
    this.attempt = undefined;
    if (this.current.state !== 'stopped') this.set({ state: 'stopped' });
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(attempt: number, reason: string): void {
    if (attempt > this.policy.maxAttempts) {
      this.set({
        state: 'failed',
        reason: `gave up after ${this.policy.maxAttempts} restarts: ${reason}`,
      });
      return;
    }
    const delay = backoffDelay(attempt, this.policy);
    this.set({ state: 'backoff', attempt, retryAt: this.clock.now() + delay, reason });
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.run(attempt, reason);
    }, delay);
  }

  private run(attempt: number, lastReason?: string): Promise<void> {
    const epoch = this.epoch;
    this.set({ state: 'starting', attempt });
    const p = this.attemptOnce(attempt, epoch, lastReason).finally(() => {
      if (this.attempt === p) this.attempt = undefined;
    });
    this.attempt = p;
    return p;
  }

  private async attemptOnce(attempt: number, epoch: number, lastReason?: string): Promise<void> {
    try {
      await this.opts.open();
      if (epoch !== this.epoch) return;
      this.set({ state: 'ready', since: this.clock.now(), attempt });
    } catch (err) {
      if (epoch !== this.epoch) return;
      const reason = message(err) || lastReason || 'unknown error';
      if (attempt === 0) this.set({ state: 'failed', reason });
      else this.schedule(attempt + 1, reason);
    }
  }
}
