import { describe, expect, it } from 'vitest';
import { AsyncQueue } from './async-queue.js';

describe('AsyncQueue', () => {
  it('hands buffered and later items out in order, then ends after end()', async () => {
    const q = new AsyncQueue<number>();
    q.push(1);
    const waiting = q.next();
    const got: number[] = [(await waiting).value];
    const rest = (async () => {
      for await (const n of q) got.push(n);
    })();
    q.push(2);
    q.push(3);
    q.end();
    q.push(4); // ignored after end
    await rest;
    expect(got).toEqual([1, 2, 3]);
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });

  it('return() drops what is buffered', async () => {
    const q = new AsyncQueue<string>();
    q.push('a');
    await q.return();
    expect((await q.next()).done).toBe(true);
  });
});
