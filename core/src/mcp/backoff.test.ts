/**
 * The restart state machine of an MCP server (backoff.ts), on an injected clock: the delays
 * double from 0.5 s to a 30 s cap, the count restarts after a stable connection, it gives up
 * after `maxAttempts`, `restartNow` skips the wait and joins a running attempt, `stop` wins.
 */
import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, ServerLife, type Clock, type LifePhase } from './backoff.js';

/** A clock whose time moves only when the test says so; due timers run in order. */
class FakeClock implements Clock {
  t = 1_000_000;
  private timers: Array<{ at: number; fn: () => void; id: number }> = [];
  private ids = 0;
  now = (): number => this.t;
  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = ++this.ids;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  };
  clearTimeout = (id: unknown): void => {
    this.timers = this.timers.filter((x) => x.id !== id);
  };
  get pending(): number {
    return this.timers.length;
  }
  /** Moves time forward by `ms`, running each timer that comes due (and the promises it starts). */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = next.at;
      next.fn();
      await settle();
    }
    this.t = end;
    await settle();
  }
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** A life whose `open` answers from a script: true = ready, a string = that failure. */
function harness(script: Array<true | string>, clock = new FakeClock()) {
  const phases: LifePhase[] = [];
  let opens = 0;
  const life = new ServerLife({
    clock,
    open: async () => {
      const step = script[opens++] ?? true;
      if (step !== true) throw new Error(step);
    },
    onChange: (p) => phases.push(p),
  });
  return { life, clock, phases, opens: () => opens };
}

describe('backoffDelay', () => {
  it('doubles from 0.5 s and stops at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => backoffDelay(n))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
});

describe('ServerLife', () => {
  it('a first start that fails is final: failed, no timer', async () => {
    const { life, clock, phases } = harness(['command not found']);
    await life.start();
    expect(life.phase).toEqual({ state: 'failed', reason: 'command not found' });
    expect(phases.map((p) => p.state)).toEqual(['starting', 'failed']);
    expect(clock.pending).toBe(0);
  });

  it('a ready server that drops waits 0.5 s, then starts again', async () => {
    const { life, clock, opens } = harness([true, true]);
    await life.start();
    expect(life.phase).toMatchObject({ state: 'ready', attempt: 0 });
    clock.t += 1000;
    life.lost('the server killed by SIGKILL');
    expect(life.phase).toEqual({
      state: 'backoff',
      attempt: 1,
      retryAt: clock.t + 500,
      reason: 'the server killed by SIGKILL',
    });
    await clock.advance(499);
    expect(life.phase.state).toBe('backoff');
    expect(opens()).toBe(1);
    await clock.advance(1);
    expect(opens()).toBe(2);
    expect(life.phase).toEqual({ state: 'ready', since: clock.t, attempt: 1 });
  });

  it('each failed restart doubles the wait up to 30 s; after maxAttempts it gives up', async () => {
    const failures = Array.from({ length: DEFAULT_BACKOFF.maxAttempts }, (_, i) => `crash ${i + 1}`);
    const { life, clock, phases } = harness([true, ...failures]);
    await life.start();
    life.lost('exited with code 1');
    const waits: number[] = [];
    while (life.phase.state === 'backoff') {
      const { retryAt } = life.phase;
      waits.push(retryAt - clock.t);
      await clock.advance(retryAt - clock.t);
    }
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000]);
    expect(life.phase).toEqual({ state: 'failed', reason: 'gave up after 10 restarts: crash 10' });
    expect(
      phases.filter((p) => p.state === 'starting').map((p) => (p as { attempt: number }).attempt),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(clock.pending).toBe(0);
  });

  it('counts on after a short-lived restart, and from 1 again after a stable one', async () => {
    const { life, clock } = harness([true, 'crash', true, true, true]);
    await life.start();
    life.lost('down');
    await clock.advance(500); // attempt 1 fails
    await clock.advance(1000); // attempt 2 works
    expect(life.phase).toMatchObject({ state: 'ready', attempt: 2 });
    await clock.advance(5_000);
    life.lost('down again'); // ready only 5 s: the count goes on
    expect(life.phase).toMatchObject({ state: 'backoff', attempt: 3 });
    await clock.advance(2_000);
    expect(life.phase).toMatchObject({ state: 'ready', attempt: 3 });
    await clock.advance(DEFAULT_BACKOFF.stableMs);
    life.lost('once in a while'); // stable for a minute: back to 0.5 s
    expect(life.phase).toMatchObject({ state: 'backoff', attempt: 1, retryAt: clock.t + 500 });
  });

  it('restartNow skips the wait, joins a running attempt, and does nothing once failed', async () => {
    let release!: () => void;
    let opens = 0;
    const clock = new FakeClock();
    const life = new ServerLife({
      clock,
      open: () => {
        opens++;
        return opens === 1 ? Promise.resolve() : new Promise<void>((r) => (release = r));
      },
    });
    await life.start();
    life.lost('down');
    expect(clock.pending).toBe(1);
    const a = life.restartNow('a tool call');
    const b = life.restartNow('another call');
    expect(clock.pending).toBe(0); // the scheduled attempt became this one
    expect(life.phase).toEqual({ state: 'starting', attempt: 1 });
    expect(opens).toBe(2);
    release();
    await Promise.all([a, b]);
    expect(opens).toBe(2);
    expect(life.phase).toMatchObject({ state: 'ready', attempt: 1 });

    // ready: restartNow reconnects at once (an HTTP session the server forgot)
    const c = life.restartNow('HTTP 404');
    expect(life.phase).toEqual({ state: 'starting', attempt: 2 });
    release();
    await c;
    expect(life.phase).toMatchObject({ state: 'ready', attempt: 2 });

    const failed = harness(['bad']);
    await failed.life.start();
    await failed.life.restartNow('x');
    expect(failed.opens()).toBe(1);
    expect(failed.life.phase.state).toBe('failed');
  });

  it('stop cancels a pending restart and ignores an attempt that ends later', async () => {
    const { life, clock, opens } = harness([true]);
    await life.start();
    life.lost('down');
    life.stop();
    expect(life.phase).toEqual({ state: 'stopped' });
    expect(clock.pending).toBe(0);
    await clock.advance(60_000);
    expect(opens()).toBe(1);

    let release!: () => void;
    const late = new ServerLife({ clock, open: () => new Promise<void>((r) => (release = r)) });
    const starting = late.start();
    late.stop();
    release();
    await starting;
    expect(late.phase).toEqual({ state: 'stopped' });
  });
});
