/** Polling helpers for tests: wait for a condition with a deadline instead of fixed sleeps. */

/**
 * Polls `check` until it returns a truthy value (returned) or the deadline passes (throws with
 * `describe()` in the message).
 */
export async function waitFor<T>(
  check: () => T | undefined | null | false,
  opts: { timeoutMs?: number; intervalMs?: number; describe?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 5_000);
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > deadline) {
      throw new Error(`waitFor: condition not met in time${opts.describe ? `\n${opts.describe()}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 5));
  }
}

/**
 * Waits until an Ink test frame contains `text` (or matches it); returns the frame.
 * @param lastFrame ink-testing-library's `lastFrame`.
 */
export function waitForFrame(
  lastFrame: () => string | undefined,
  text: string | RegExp | ((frame: string) => boolean),
  timeoutMs = 5_000,
): Promise<string> {
  const test = (f: string): boolean =>
    typeof text === 'string' ? f.includes(text) : text instanceof RegExp ? text.test(f) : text(f);
  return waitFor(
    () => {
      const f = lastFrame() ?? '';
      return test(f) ? f : undefined;
    },
    { timeoutMs, describe: () => `last frame:\n${lastFrame() ?? '(none)'}` },
  );
}

/** Lets pending timers, I/O and React effects run once (a tick, not a timed sleep). */
export function tick(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
