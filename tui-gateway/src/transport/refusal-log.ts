/**
 * Rate-limited logging of refused connections: a peer that opens thousands of connections must
 * not be able to fill the disk through the daemon's log. Per key (peer + reason) the first
 * `burst` refusals of a window of `windowMs` are logged one line each; the rest are only
 * counted, and when the window closes one summary line says how many more there were
 * ("1234 more refused connections from 127.0.0.1 (401 wrong bearer token) in the last 10 s").
 */

/** Refusals logged one line each per key and window. */
export const REFUSAL_LOG_BURST = 5;
/** Length of a window, ms. */
export const REFUSAL_LOG_WINDOW_MS = 10_000;
/** Keys tracked at once; refusals of further keys in a window are only counted together. */
const MAX_KEYS = 256;

interface Window {
  logged: number;
  suppressed: number;
}

/** Counts and logs refusals (see the module comment). */
export class RefusalLog {
  private windows = new Map<string, Window>();
  private overflow = 0;
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param warn where lines go.
   * @param burst lines per key and window (default `REFUSAL_LOG_BURST`).
   * @param windowMs window length, ms (default `REFUSAL_LOG_WINDOW_MS`).
   */
  constructor(
    private readonly warn: (line: string) => void,
    private readonly burst = REFUSAL_LOG_BURST,
    private readonly windowMs = REFUSAL_LOG_WINDOW_MS,
  ) {}

  /** Records one refusal of `peer` for `reason`; logs it unless its key used up its burst. */
  refused(peer: string, reason: string): void {
    const key = `${peer} (${reason})`;
    let w = this.windows.get(key);
    if (!w) {
      if (this.windows.size >= MAX_KEYS) {
        this.overflow++;
        this.arm();
        return;
      }
      w = { logged: 0, suppressed: 0 };
      this.windows.set(key, w);
    }
    this.arm();
    if (w.logged < this.burst) {
      w.logged++;
      this.warn(`refused connection from ${key}`);
    } else {
      w.suppressed++;
    }
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.windowMs);
    this.timer.unref();
  }

  /** Closes the window: one summary line per key that had more refusals than its burst. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const secs = Math.round(this.windowMs / 1000);
    for (const [key, w] of this.windows) {
      if (w.suppressed > 0)
        this.warn(`${w.suppressed} more refused connections from ${key} in the last ${secs} s`);
    }
    if (this.overflow > 0)
      this.warn(`${this.overflow} more refused connections from other peers in the last ${secs} s`);
    this.windows = new Map();
    this.overflow = 0;
  }
}
