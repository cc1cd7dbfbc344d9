import { describe, expect, it } from 'vitest';
import { FAST_PHASE_MS, jitterDelayMs, withWriteRetry, WriteBudgetExceededError } from './write-retry.js';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** A fake clock that advances only when the retry loop sleeps. */
function fakeTime() {
  let t = 0;
  const sleeps: number[] = [];
  return { now: () => t, sleep: (ms: number) => (sleeps.push(ms), (t += ms)), sleeps };
}

describe('withWriteRetry', () => {
  it('retries lock errors with jitter until the write succeeds', () => {
    const clock = fakeTime();
    let calls = 0;
    const out = withWriteRetry(
      () => {
        if (++calls < 4) throw busy();
        return 'ok';
      },
      { budgetMs: 1000, ...clock },
    );
    expect(out).toBe('ok');
    expect(calls).toBe(4);
    expect(clock.sleeps).toHaveLength(3);
    for (const s of clock.sleeps) expect(s).toBeGreaterThanOrEqual(10);
  });

  it('stops at the time budget, not after a number of attempts', () => {
    const clock = fakeTime();
    let calls = 0;
    const run = () =>
      withWriteRetry(
        () => {
          calls++;
          throw busy();
        },
        { budgetMs: 5_000, ...clock },
      );
    expect(run).toThrow(WriteBudgetExceededError);
    expect(clock.now()).toBe(5_000); // never sleeps past the budget
    expect(calls).toBeGreaterThan(10);
  });

  it('rethrows other errors at once', () => {
    let calls = 0;
    expect(() =>
      withWriteRetry(
        () => {
          calls++;
          throw Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT' });
        },
        { budgetMs: 1000, ...fakeTime() },
      ),
    ).toThrow('constraint');
    expect(calls).toBe(1);
  });

  it('uses short pauses first and longer ones after the fast phase', () => {
    expect(jitterDelayMs(0, () => 0)).toBe(10);
    expect(jitterDelayMs(0, () => 0.999)).toBeLessThan(100);
    expect(jitterDelayMs(FAST_PHASE_MS, () => 0)).toBe(100);
    expect(jitterDelayMs(FAST_PHASE_MS, () => 0.999)).toBeLessThan(500);
  });
});
