/**
 * A clock for tests of the adapter host: time moves only when `advance` is called, and the
 * timers due by then fire in order.
 */
import type { HostClock } from './reconnect.js';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/** A hand-driven HostClock. */
export class FakeClock implements HostClock {
  private t: number;
  private nextId = 1;
  private timers: Timer[] = [];

  /** @param start epoch ms (default 2026-01-01T00:00:00Z). */
  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.t + Math.max(0, ms), fn };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((x) => x.id !== handle);
  }

  /** Due times of the pending timers, epoch ms, soonest first. */
  get pending(): number[] {
    return this.timers.map((x) => x.at).sort((a, b) => a - b);
  }

  /** Moves time forward by `ms`, firing every timer due on the way. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = due.at;
      due.fn();
    }
    this.t = end;
  }
}
