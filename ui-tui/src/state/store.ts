/**
 * A tiny external store for the session reducer, read by React through `useSyncExternalStore`.
 * Actions apply at once; subscribers are told at most every `throttleMs` (so a fast stream of
 * deltas redraws the live part ~30 times a second), except for urgent actions, told at once.
 *
 * Two options make the end of a stream show at once, whatever the throttle:
 * - `quietMs`: once no action came for this long, what waits is published (the last delta of a
 *   stream does not wait out the throttle), but never sooner than `minFrameMs` after the previous
 *   publication (a stream that comes in bursts is drawn at most 1000/minFrameMs times a second);
 * - `paintFirst`: an urgent action that ends something costly to draw (a finished reply whose
 *   long last block is printed whole) publishes what was waiting first (the last delta), and is
 *   applied and published itself in the next macrotask, after the renderer wrote that frame.
 *   Actions dispatched meanwhile queue behind it, in order. An end that is cheap to draw is better
 *   drawn in the same frame as what waited: one frame instead of two (several TUIs on two cores
 *   each drawing two frames at a reply's end delay one another's last word).
 *
 * With `drain`, a paced frame also waits until the output has written the one before (a terminal
 * that reads slowly sets the frame rate; a TTY on Linux is written synchronously, so this waits
 * only on piped or remote outputs).
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

/** Options of `createStore` (`S`: the state, as `paintFirst` sees it). */
export interface StoreOptions<A, S = unknown> {
  /** Minimum interval between publications, ms (default 33; 0 publishes every action). */
  throttleMs?: number;
  /** Actions published without waiting (default: all). */
  isUrgent?: (action: A) => boolean;
  /** Publish what waits once no action came for this long, ms (default: wait out the throttle). */
  quietMs?: number;
  /** With `quietMs`: least time between two publications, ms (default 16). */
  minFrameMs?: number;
  /**
   * Urgent actions whose waiting predecessors are published (and drawn) first; see above. Asked
   * with the latest state, before the action applies.
   */
  paintFirst?: (action: A, state: S) => boolean;
  /**
   * The output the frames are written to: a paced publication (not an urgent one) waits while
   * it is still writing the previous frame (`busy()`, e.g. a stream's `writableNeedDrain`) and is
   * made when it drains (`onDrain`), so frames never pile up behind a slow terminal.
   */
  drain?: { busy(): boolean; onDrain(callback: () => void): void };
  /** Clock (tests). */
  now?: () => number;
}

/** Creates a store around a reducer. */
export function createStore<S, A>(
  reducer: (state: S, action: A) => S,
  initial: S,
  opts: StoreOptions<A, S> = {},
): Store<S, A> {
  const throttleMs = opts.throttleMs ?? 33;
  const now = opts.now ?? Date.now;
  let state = initial;
  let published = initial;
  let lastPublish = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  const listeners = new Set<() => void>();
  /** Actions held behind a `paintFirst` action until the next macrotask (null: none held). */
  let held: A[] | null = null;

  const publish = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    lastPublish = now();
    if (published === state) return;
    published = state;
    for (const l of [...listeners]) l();
  };

  let waitingForDrain = false;
  let disposed = false;
  /** A paced publication: now, or once the output has drained. */
  const publishPaced = (): void => {
    if (!opts.drain?.busy()) return publish();
    if (timer) clearTimeout(timer);
    timer = null;
    if (waitingForDrain) return;
    waitingForDrain = true;
    opts.drain.onDrain(() => {
      waitingForDrain = false;
      if (!disposed) publish();
    });
  };

  const apply = (action: A): void => {
    const next = reducer(state, action);
    if (next === state) return;
    state = next;
    const urgent = opts.isUrgent ? opts.isUrgent(action) : true;
    const wait = lastPublish + throttleMs - now();
    if (urgent) publish();
    else if (throttleMs <= 0 || wait <= 0) publishPaced();
    else if (opts.quietMs !== undefined) {
      // the throttle's end or a quiet spell, whichever comes first, one frame after the last at least
      if (timer) clearTimeout(timer);
      const floor = lastPublish + (opts.minFrameMs ?? 16) - now();
      timer = setTimeout(publishPaced, Math.max(Math.min(wait, opts.quietMs), floor, 0));
    } else if (!timer && !waitingForDrain) timer = setTimeout(publishPaced, wait);
  };
  const releaseHeld = (): void => {
    const actions = held ?? [];
    held = null;
    for (const a of actions) apply(a);
  };

  return {
    getState: () => state,
    getSnapshot: () => published,
    dispatch(action) {
      if (held) {
        held.push(action);
        return;
      }
      if (published !== state && opts.paintFirst?.(action, state)) {
        publish(); // what waited is drawn now; this action follows in the next macrotask
        held = [action];
        setImmediate(releaseHeld);
        return;
      }
      apply(action);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush: () => {
      if (held) releaseHeld();
      if (published !== state) publish();
    },
    dispose() {
      disposed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      held = null;
    },
  };
}
