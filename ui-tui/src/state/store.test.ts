import { describe, expect, it } from 'vitest';
import { waitFor } from '@hermes/client/testing';
import { createStore } from './store.js';

describe('createStore', () => {
  it('publishes urgent actions at once and throttles the rest', async () => {
    let clock = 0;
    const store = createStore((s: number, a: { add: number; urgent?: boolean }) => s + a.add, 0, {
      throttleMs: 50,
      isUrgent: (a) => a.urgent === true,
      now: () => clock,
    });
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getSnapshot()));
    store.dispatch({ add: 1 }); // first publish is immediate (nothing published yet)
    for (let i = 0; i < 100; i++) store.dispatch({ add: 1 });
    expect(store.getState()).toBe(101);
    expect(store.getSnapshot()).toBe(1);
    expect(seen).toEqual([1]);
    store.dispatch({ add: 10, urgent: true });
    expect(seen).toEqual([1, 111]);
    store.dispatch({ add: 1 });
    clock = 100;
    await waitFor(() => seen.length === 3);
    expect(seen).toEqual([1, 111, 112]);
    store.dispose();
  });

  it('ignores actions that do not change the state', () => {
    const store = createStore((s: number) => s, 5);
    let calls = 0;
    store.subscribe(() => calls++);
    store.dispatch(undefined as never);
    store.flush();
    expect(calls).toBe(0);
  });
});
