/** A manual clock for components with timers (the approval card): time moves only when told. */
import type { CardClock } from '../components/approval-gate.js';

/** A `CardClock` whose time moves only through `advance`. */
export interface ManualClock extends CardClock {
  /** Moves time on by `ms`, running every timer that falls due, in time order. */
  advance(ms: number): void;
}

/**
 * A manual clock starting at `start` ms. `earlyMs` makes each timer run that much before its time
 * (as a real timer may, measured against `Date.now()`): the time it sees is `at - earlyMs`.
 */
export function manualClock(start = 1_000_000, opts: { earlyMs?: number } = {}): ManualClock {
  const early = opts.earlyMs ?? 0;
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    after(ms, fn) {
      const id = ++seq;
      timers.set(id, { at: now + ms, fn });
      return () => timers.delete(id);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at - early <= end)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at - early);
        due[1].fn();
      }
      now = end;
    },
  };
}
