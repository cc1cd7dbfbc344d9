import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { ReplayRing, RingBudget } from './replay-ring.js';

const ev = (seq: number, text = 'x'): WireEvent => ({
  type: 'message.delta',
  session_id: 's',
  seq,
  payload: { text },
});

describe('ReplayRing', () => {
  it('returns exactly the events after since_seq', () => {
    const ring = new ReplayRing();
    for (let s = 1; s <= 10; s++) ring.push(ev(s));
    const r = ring.since(6, 10);
    expect(r.truncated).toBe(false);
    expect(r.events.map((e) => e.seq)).toEqual([7, 8, 9, 10]);
    expect(ring.since(10, 10)).toEqual({ events: [], truncated: false });
  });

  it('reports truncated once missed events have left the ring (count bound)', () => {
    const ring = new ReplayRing(new RingBudget(), 5);
    for (let s = 1; s <= 20; s++) ring.push(ev(s));
    expect(ring.size).toBe(5);
    expect(ring.oldestSeq).toBe(16);
    expect(ring.since(14, 20).truncated).toBe(true);
    expect(ring.since(15, 20).events.map((e) => e.seq)).toEqual([16, 17, 18, 19, 20]);
  });

  it('bounds bytes per ring and across rings', () => {
    const budget = new RingBudget(10_000);
    const a = new ReplayRing(budget, 1000, 4_000);
    const b = new ReplayRing(budget, 1000, 100_000);
    for (let s = 1; s <= 100; s++) a.push(ev(s, 'a'.repeat(100)));
    expect(a.size).toBeLessThan(40);
    for (let s = 1; s <= 200; s++) b.push(ev(s, 'b'.repeat(100)));
    expect(budget.used).toBeLessThanOrEqual(10_000);
    a.clear();
    b.clear();
    expect(budget.used).toBe(0);
  });
});
