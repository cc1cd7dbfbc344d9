/**
 * A tiny external store for the session reducer, read by React through `useSyncExternalStore`.
 * Actions apply at once; subscribers are told at most every `throttleMs` (so a fast stream of
 * deltas redraws the live part ~30 times a second), except for urgent actions, told at once.
 */

/** A store of state `S` changed by actions `A`. */
export interface Store<S, A> {
  /** The latest state (for logic). */
  getState(): S;
  /** The state last published to subscribers (for rendering). */
  getSnapshot(): S;
  dispatch(action: A): void;
  /** Subscribes to publications; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Publishes now if anything is pending. */
  flush(): void;
  /** Stops the pending timer. */
  dispose(): void;
}

/** Options of `createStore`. */
export interface StoreOptions<A> {
  /** Minimum interval between publications, ms (default 33; 0 publishes every action). */
  throttleMs?: number;
  /** Actions published without waiting (default: all). */
  isUrgent?: (action: A) => boolean;
  /** Clock (tests). */
  now?: () => number;
}

/** Creates a store around a reducer. */
export function createStore<S, A>(
  reducer: (state: S, action: A) => S,
  initial: S,
  opts: StoreOptions<A> = {},
): Store<S, A> {
  const throttleMs = opts.throttleMs ?? 33;
  const now = opts.now ?? Date.now;
  let state = initial;
  let published = initial;
  let lastPublish = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  const listeners = new Set<() => void>();

  const publish = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    lastPublish = now();
    if (published === state) return;
    published = state;
    for (const l of [...listeners]) l();
  };

  return {
    getState: () => state,
    getSnapshot: () => published,
    dispatch(action) {
      const next = reducer(state, action);
      if (next === state) return;
      state = next;
      const urgent = opts.isUrgent ? opts.isUrgent(action) : true;
      const wait = lastPublish + throttleMs - now();
      if (urgent || throttleMs <= 0 || wait <= 0) publish();
      else if (!timer) timer = setTimeout(publish, wait);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush: () => {
      if (published !== state) publish();
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
