import { describe, expect, it } from 'vitest';
import { waitFor } from './options.js';

/** A subscribable source that counts its subscribers. */
function source<T>() {
  const subs = new Set<(x: T) => void>();
  return {
    subs,
    emit: (x: T) => [...subs].forEach((s) => s(x)),
    subscribe: (cb: (x: T) => void) => {
      subs.add(cb);
      return () => subs.delete(cb);
    },
  };
}

describe('waitFor', () => {
  it('resolves with the first match and unsubscribes', async () => {
    const s = source<number>();
    const p = waitFor(s.subscribe, (n) => n > 1, 1_000, 'number');
    s.emit(1);
    s.emit(2);
    s.emit(3);
    expect(await p).toBe(2);
    expect(s.subs.size).toBe(0);
  });

  it('rejects naming what it waited for after the deadline, and unsubscribes', async () => {
    const s = source<number>();
    await expect(waitFor(s.subscribe, () => false, 20, 'frame')).rejects.toThrow(
      'no frame matched within 20 ms',
    );
    expect(s.subs.size).toBe(0);
  });
});
