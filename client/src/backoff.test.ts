import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  it('grows exponentially and is capped', () => {
    const top = () => 0.999999;
    const opts = { initialMs: 100, maxMs: 1000, factor: 2, jitter: 0.5 };
    expect(backoffDelay(0, opts, top)).toBe(100);
    expect(backoffDelay(1, opts, top)).toBe(200);
    expect(backoffDelay(3, opts, top)).toBe(800);
    expect(backoffDelay(4, opts, top)).toBe(1000);
    expect(backoffDelay(50, opts, top)).toBe(1000);
  });

  it('keeps jitter within [base × (1 − jitter), base]', () => {
    const opts = { initialMs: 1000, maxMs: 1000, jitter: 0.3 };
    expect(backoffDelay(0, opts, () => 0)).toBe(700);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(2, opts);
      expect(d).toBeGreaterThanOrEqual(700);
      expect(d).toBeLessThanOrEqual(1000);
    }
  });
});
