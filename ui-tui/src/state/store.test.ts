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

  it('paintFirst: publishes what waited, then the action in the next macrotask, with later actions in order', async () => {
    let clock = 0;
    type Act = { add: number; end?: boolean };
    const applied: number[] = [];
    const store = createStore(
      (s: number, a: Act) => {
        applied.push(a.add);
        return s + a.add;
      },
      0,
      {
        throttleMs: 50,
        isUrgent: (a) => a.end === true,
        paintFirst: (a) => a.end === true,
        now: () => clock,
      },
    );
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getSnapshot()));
    store.dispatch({ add: 1 }); // published at once
    store.dispatch({ add: 2 }); // waits for the throttle
    store.dispatch({ add: 100, end: true }); // the end: 3 is published first, alone
    store.dispatch({ add: 1000 }); // queued behind the end
    expect(seen).toEqual([1, 3]);
    expect(store.getState()).toBe(3);
    await waitFor(() => store.getState() === 1103);
    expect(seen[2]).toBe(103); // the end published on its own, urgent
    expect(applied).toEqual([1, 2, 100, 1000]);
    clock = 100;
    store.flush();
    expect(store.getSnapshot()).toBe(1103);
    store.dispose();
  });

  it('paintFirst is asked with the latest state: an end it declines is published with what waited, once', () => {
    type Act = { add: number; end?: boolean };
    const asked: number[] = [];
    const store = createStore((s: number, a: Act) => s + a.add, 0, {
      throttleMs: 50,
      isUrgent: (a) => a.end === true,
      paintFirst: (a, s) => {
        asked.push(s);
        return a.end === true && s > 10;
      },
    });
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getSnapshot()));
    store.dispatch({ add: 1 }); // published at once
    store.dispatch({ add: 2 }); // waits for the throttle
    store.dispatch({ add: 100, end: true }); // declined (state 3): one publication for both
    expect(asked).toEqual([3]);
    expect(seen).toEqual([1, 103]);
    store.dispose();
  });

  it('paintFirst with nothing waiting applies the action at once', () => {
    const store = createStore((s: number, a: number) => s + a, 0, {
      throttleMs: 50,
      paintFirst: () => true,
    });
    store.dispatch(5);
    expect(store.getSnapshot()).toBe(5);
    store.dispose();
  });

  it('quietMs: what waits is published once the actions pause, one frame after the last publication at least', async () => {
    let clock = 0;
    const store = createStore((s: number, a: number) => s + a, 0, {
      throttleMs: 10_000,
      isUrgent: () => false,
      quietMs: 5,
      minFrameMs: 0,
      now: () => clock,
    });
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getSnapshot()));
    store.dispatch(1); // at once
    store.dispatch(2); // waits: the throttle is 10 s, the pause 5 ms
    expect(seen).toEqual([1]);
    clock = 1;
    await waitFor(() => seen.length === 2, { timeoutMs: 2_000 });
    expect(seen).toEqual([1, 3]);
    store.dispose();
  });

  it('drain: a paced frame waits while the output writes the one before; an urgent one does not', async () => {
    let clock = 0;
    let busy = true;
    const drained: Array<() => void> = [];
    const store = createStore((s: number, a: { add: number; urgent?: boolean }) => s + a.add, 0, {
      throttleMs: 10,
      isUrgent: (a) => a.urgent === true,
      now: () => clock,
      drain: { busy: () => busy, onDrain: (cb) => drained.push(cb) },
    });
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getSnapshot()));
    store.dispatch({ add: 1 }); // nothing was published yet: due at once, but the output is busy
    clock = 20;
    store.dispatch({ add: 1 });
    await new Promise((r) => setTimeout(r, 30));
    expect(seen).toEqual([]);
    expect(drained).toHaveLength(1); // one wait, however many frames came due
    store.dispatch({ add: 5, urgent: true });
    expect(seen).toEqual([7]);
    store.dispatch({ add: 1 });
    busy = false;
    drained.shift()!();
    expect(seen).toEqual([7, 8]);
    store.dispose();
  });
});
