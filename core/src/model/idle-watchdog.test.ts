import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ModelError } from './errors.js';
import { idleWatchdog } from './idle-watchdog.js';

const what = { provider: 'p', model: 'm', timeoutS: 30 };

describe('idleWatchdog', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('aborts when nothing arrived for the timeout, and check names the provider and the wait', () => {
    const w = idleWatchdog(undefined, 30_000, () => new Error('user abort'));
    w.arm();
    vi.advanceTimersByTime(29_999);
    expect(w.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(w.signal.aborted).toBe(true);
    expect(() => w.check(what)).toThrow(ModelError);
    expect(() => w.check(what)).toThrow('p sent nothing for 30 s (model m)');
    w.dispose();
  });

  it("follows the caller's signal, reported as the SDK's abort error", () => {
    const caller = new AbortController();
    const w = idleWatchdog(caller.signal, 60_000, () => new Error('user abort'));
    w.arm();
    caller.abort();
    expect(w.signal.aborted).toBe(true);
    expect(() => w.check(what)).toThrow('user abort');
    w.dispose();
  });

  it('re-arming keeps a live stream going; dispose stops the timer', () => {
    const w = idleWatchdog(undefined, 30_000, () => new Error('user abort'));
    for (let i = 0; i < 5; i++) {
      w.arm();
      vi.advanceTimersByTime(20_000);
    }
    expect(w.signal.aborted).toBe(false);
    expect(() => w.check(what)).not.toThrow();
    w.dispose();
    vi.advanceTimersByTime(60_000);
    expect(w.signal.aborted).toBe(false);
  });
});
