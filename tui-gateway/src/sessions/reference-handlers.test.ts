import { describe, expect, it } from 'vitest';
import type { LiveSession } from './live-session.js';
import { inSubmitOrder } from './reference-handlers.js';

describe('inSubmitOrder', () => {
  it('runs the submits of one session in the order they came, also after a failure', async () => {
    const live = {} as LiveSession;
    const other = {} as LiveSession;
    const order: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const a = inSubmitOrder(live, async () => {
      await slow; // resolving a page
      order.push('a');
    });
    const b = inSubmitOrder(live, async () => {
      order.push('b');
      throw new Error('cannot attach');
    });
    const c = inSubmitOrder(live, async () => order.push('c'));
    const elsewhere = inSubmitOrder(other, async () => order.push('other session'));
    await elsewhere;
    expect(order).toEqual(['other session']);
    release();
    await a;
    await expect(b).rejects.toThrow('cannot attach');
    await c;
    expect(order).toEqual(['other session', 'a', 'b', 'c']);
  });
});
