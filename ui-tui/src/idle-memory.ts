/**
 * Memory given back while the TUI is idle: once nothing has happened for a moment (no key, no
 * session event, no turn running), one full garbage collection that reduces memory, as V8's own
 * memory reducer would do some 8–20 s later.
 *
 * What it returns (measured with bench/tui-memory.bench.ts, `tui.rss.idle`, VmRSS of an idle TUI):
 * - an ordinary full collection (`gc()` of `--expose-gc`) frees objects but keeps their pages
 *   (V8 pools them for reuse), and the resident set does not move;
 * - a memory-reducing one (`HeapProfiler.collectGarbage` over an in-process inspector session:
 *   V8's `LowMemoryNotification`; short of a heap snapshot, the only one a script can ask for)
 *   compacts the heap, shrinks the young generation and unmaps the pooled pages: about 2.4 MB;
 * - with V8's code flushing forced for that one collection (`--stress-flush-code`,
 *   `--flush-baseline-code`, set back after it), the bytecode and baseline code of functions that
 *   ran only while starting (module bodies, the loaders, first frames) goes too: about 2 MB more.
 *   Functions that run again are compiled again lazily from the source V8 keeps (a few ms spread
 *   over the next key or frame). Only the first collection after start-up flushes code: the code
 *   of a streamed reply is what the next turn runs again.
 * Together, 62.5 → 58.7 MB idle (net of the inspector's own pages, ~0.4 MB; with the start-up
 * WebAssembly budget of `heap-tuning.ts`, which keeps the 66 MB starts away). The collection takes
 * 10–40 ms on the main thread, while nothing else happens.
 */
import type { Session } from 'node:inspector';
import { setFlagsFromString } from 'node:v8';

/** How long the TUI must have been idle before its memory is reduced, ms. */
export const IDLE_COLLECT_MS = 1_000;

/** The V8 flags set for the start-up collection (code flushing forced), then `FLUSH_CODE_OFF`. */
export const FLUSH_CODE_ON: readonly string[] = ['--stress-flush-code', '--flush-baseline-code'];
/** V8's defaults, set back after the start-up collection. */
export const FLUSH_CODE_OFF: readonly string[] = ['--no-stress-flush-code', '--no-flush-baseline-code'];

/** A memory-reducing collection: `flushCode` also drops code not running now. Resolves when done. */
export type Collect = (opts: { flushCode: boolean }) => Promise<void>;

/**
 * Runs one memory-reducing full collection (`HeapProfiler.collectGarbage` over an in-process
 * inspector session). Never rejects: without an inspector (a Node built without one) it does
 * nothing.
 * @param opts.flushCode force V8's code flushing for this collection (`FLUSH_CODE_ON`, then
 *   `FLUSH_CODE_OFF`).
 * @param set where flags go (tests); default `v8.setFlagsFromString`.
 */
export async function reduceMemory(
  opts: { flushCode: boolean },
  set: (flag: string) => void = setFlagsFromString,
): Promise<void> {
  let session: Session;
  try {
    // loaded here, when first needed: the inspector module is no part of start-up
    const inspector = await import('node:inspector');
    session = new inspector.Session();
    session.connect();
  } catch {
    return; // no inspector in this Node
  }
  if (opts.flushCode) for (const flag of FLUSH_CODE_ON) set(flag);
  try {
    await new Promise<void>((resolve) => {
      session.post('HeapProfiler.collectGarbage', () => resolve());
    });
  } finally {
    if (opts.flushCode) for (const flag of FLUSH_CODE_OFF) set(flag);
    // not from within the callback: disconnecting there deadlocks V8's heap profiler agent
    // (Node 20: the session's destructor waits on a lock the callback holds)
    await new Promise<void>((resolve) => setImmediate(resolve));
    session.disconnect();
  }
}

/**
 * Calls `onInput` whenever something reads a chunk from `stream` (Ink reads keys with
 * `stdin.read()` on `readable`). It wraps `read` rather than listening: a `data` listener would
 * switch the stream to flowing mode under Ink, and a `readable` one would keep the terminal read
 * while an external editor has it. Returns the function that puts `read` back.
 */
export function watchReads(stream: NodeJS.ReadableStream, onInput: () => void): () => void {
  const read = stream.read;
  stream.read = function (this: NodeJS.ReadableStream, ...args: Parameters<typeof read>) {
    const chunk = read.apply(this, args);
    if (chunk !== null) onInput();
    return chunk;
  } as typeof read;
  return () => {
    stream.read = read;
  };
}

/** The handle `watchRequests` returns. */
export interface RequestWatch {
  /** Requests sent and not yet answered (or failed). */
  pending(): number;
  /** Puts `request` back. */
  restore(): void;
}

/**
 * Counts the requests in flight through `client.request` (the TUI's to the daemon) and calls
 * `onChange` when one is sent and when one settles. A page of `/history` or an attach is work
 * under way even though no key or event arrives while the daemon answers: a memory-reducing
 * collection then would compact a heap about to grow (its copy raised the peak resident set by
 * ~50 MB while `/history` paged through 10,000 messages).
 */
export function watchRequests(
  client: { request: (...args: never[]) => Promise<unknown> },
  onChange: () => void,
): RequestWatch {
  const request = client.request;
  let pending = 0;
  const settle = (): void => {
    pending--;
    onChange();
  };
  client.request = function (this: unknown, ...args: never[]) {
    pending++;
    onChange();
    const answer = request.apply(this, args);
    answer.then(settle, settle);
    return answer;
  } as typeof request;
  return {
    pending: () => pending,
    restore() {
      client.request = request;
    },
  };
}

/** The handle `collectWhenIdle` returns. */
export interface IdleCollector {
  /** Something happened (a key, a session event): the idle delay starts again. */
  activity(): void;
  /** Stops (on exit): no collection after this. */
  stop(): void;
}

/** Options of `collectWhenIdle`. */
export interface IdleCollectOptions {
  /** Whether work is under way (a turn runs): no collection then; checked when the delay ends. */
  busy: () => boolean;
  /** The collection (default `reduceMemory`). */
  collect?: Collect;
  /** Idle delay, ms (default `IDLE_COLLECT_MS`). */
  delayMs?: number;
}

/**
 * Collects once each time the TUI goes idle: `delayMs` after the last `activity()` (or after
 * this call), unless `busy()`, in which case it waits another `delayMs` and asks again. After a
 * collection it waits for new activity: an idle TUI collects once, not every `delayMs`. The first
 * collection flushes code (start-up code; see the file comment), later ones do not. The timer does
 * not keep the process alive.
 */
export function collectWhenIdle(opts: IdleCollectOptions): IdleCollector {
  const collect = opts.collect ?? reduceMemory;
  const delayMs = opts.delayMs ?? IDLE_COLLECT_MS;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let collections = 0;
  let dirty = true; // activity since the last collection (start-up counts)
  const arm = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(fire, delayMs);
    timer.unref();
  };
  const fire = (): void => {
    timer = null;
    if (stopped || !dirty) return;
    if (opts.busy()) return arm();
    dirty = false;
    void collect({ flushCode: collections++ === 0 }).catch(() => {});
  };
  arm();
  return {
    activity() {
      if (stopped) return;
      dirty = true;
      arm();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
