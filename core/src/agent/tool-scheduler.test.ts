import { describe, expect, it } from 'vitest';
import { scheduleToolCalls } from './tool-scheduler.js';

interface Call {
  id: number;
  ro: boolean;
}

describe('scheduleToolCalls', () => {
  it('runs consecutive read-only calls concurrently and others alone, results in order', async () => {
    const calls: Call[] = [
      { id: 0, ro: true },
      { id: 1, ro: true },
      { id: 2, ro: false },
      { id: 3, ro: true },
    ];
    let running = 0;
    let peak = 0;
    const log: string[] = [];
    const gates = new Map<number, () => void>();
    const results = await scheduleToolCalls(
      calls,
      (c) => c.ro,
      async (c) => {
        running++;
        peak = Math.max(peak, running);
        log.push(`start ${c.id}`);
        if (c.id === 0) {
          // call 0 waits until call 1 has started: proves overlap without timing
          await new Promise<void>((resolve) => gates.set(0, resolve));
        }
        if (c.id === 1) gates.get(0)?.();
        log.push(`end ${c.id}`);
        running--;
        return `r${c.id}`;
      },
    );
    expect(results).toEqual(['r0', 'r1', 'r2', 'r3']);
    expect(peak).toBe(2);
    expect(log.indexOf('start 2')).toBeGreaterThan(log.indexOf('end 0'));
    expect(log.indexOf('start 2')).toBeGreaterThan(log.indexOf('end 1'));
  });

  it('never runs more than the limit at once', async () => {
    const calls = Array.from({ length: 20 }, (_, i) => ({ id: i, ro: true }));
    let running = 0;
    let peak = 0;
    await scheduleToolCalls(
      calls,
      () => true,
      async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setImmediate(r));
        running--;
      },
      undefined,
      8,
    );
    expect(peak).toBe(8);
  });
});
