/**
 * V8 heap settings for the TUI process, set by `runTui` before Ink and the app load.
 *
 * A TUI allocates in bursts (a frame of a streaming reply, a page of `/history` printed at once)
 * and then sits idle for minutes. With V8's defaults each burst grows the young generation to
 * 32 MiB and the old one by large steps, and the process keeps that memory while idle. These
 * flags trade some CPU (more, smaller collections) for a resident set about half as large:
 * - `--max-semi-space-size=1`, `--semi-space-growth-factor=1`: a young generation of 1 MiB
 *   semi-spaces that does not grow (short-lived frame garbage is collected often and cheaply);
 * - `--heap-growing-percent=50`: the old generation grows by half of what is live after a full
 *   collection, not by up to 4×.
 * (`--optimize-for-size` keeps the heap as small but costs about 1.8× the CPU of a streaming
 * reply, against about 1.3× for these; measured with bench/tui-memory.bench.ts and
 * `tui.stream.cpu_20k_on_2k`.)
 * - `--max-opt=1`: while the TUI starts, functions tier up to Sparkplug (baseline code) but not
 *   to TurboFan. Start-up code (module evaluation, Yoga's loader, the first frames) runs once;
 *   optimising it cost about 8 MB resident that an idle TUI kept (TurboFan's zones in malloc
 *   arenas of compiler threads, its code pages) for no speed later. `optimizeWhenWorkBegins`
 *   lifts the cap at the first key or turn, so typing and streaming run optimised code.
 * - `--wasm-tiering-budget=18000000` (10× V8's): the same for WebAssembly (Yoga's layout engine),
 *   as far as it can be. Hot Yoga functions tier up from Liftoff to TurboFan on a V8 worker thread
 *   after executing about a budget's worth of code; with V8's budget that happened while the TUI
 *   started, and that compilation's zones stayed in the worker's malloc arena (freed, not given
 *   back) in one start in three or more: the idle TUI then held ~4 MB more (62.5 or 66 MB). A
 *   budget is given to each function when the module is instantiated, so a larger one delays its
 *   first tier-up past start-up; later budgets are V8's again (`FULL_OPTIMISATION_FLAGS`), and the
 *   first turn's layouts tier up as before. (`--liftoff-only` instead, lifted later, does not
 *   work: a module compiled under it never tiers up, and its layouts cost ~30% more.)
 * They are V8 flags that take effect when set at run time (`v8.setFlagsFromString`), so the
 * `hermes` launcher needs no re-exec and no `NODE_OPTIONS`. The daemon is another process and
 * keeps V8's defaults (its throughput matters more than its size). What an idle TUI gives back
 * after start-up and after each turn is in `idle-memory.ts`.
 */
import { setFlagsFromString } from 'node:v8';

/** The flags `tuneHeapForTui` sets, in order. */
export const TUI_V8_FLAGS: readonly string[] = [
  '--max-semi-space-size=1',
  '--semi-space-growth-factor=1',
  '--heap-growing-percent=50',
  '--max-opt=1',
  '--wasm-tiering-budget=18000000',
];

/**
 * V8's defaults, set back by `optimizeWhenWorkBegins`: any tier (`--max-opt=999`), TurboFan
 * itself, which `--max-opt=1` turned off by implication (`--max-opt` alone does not bring it back),
 * and WebAssembly's tier-up budget (V8's default; a function's next budget is taken from it).
 */
export const FULL_OPTIMISATION_FLAGS: readonly string[] = [
  '--max-opt=999',
  '--turbofan',
  '--wasm-tiering-budget=1800000',
];

/** The session events that start work worth optimised code (a turn and its streamed reply). */
const WORK_EVENTS: ReadonlySet<string> = new Set(['turn.start', 'message.delta', 'reasoning.delta']);

/**
 * Applies `TUI_V8_FLAGS` to this process (once is enough; again is harmless). Call it before
 * loading the app, so the heap never grows to the default sizes first.
 * @param set where flags go (tests); default `v8.setFlagsFromString`.
 */
export function tuneHeapForTui(set: (flag: string) => void = setFlagsFromString): void {
  for (const flag of TUI_V8_FLAGS) set(flag);
}

/** The handle `optimizeWhenWorkBegins` returns. */
export interface WorkWatch {
  /** Work began (a line was submitted): sets `FULL_OPTIMISATION_FLAGS` unless already done. */
  begin(): void;
  /** Stops watching without setting the flag (on exit). */
  stop(): void;
}

/**
 * Sets `FULL_OPTIMISATION_FLAGS` once, at the first `begin()` (the caller's: a submitted line) or
 * session event of a turn (`turn.start`, `message.delta`, `reasoning.delta`, also one started by
 * another client), then stops watching. Until then the start-up cap of `TUI_V8_FLAGS`
 * (`--max-opt=1`) holds, so an idle TUI never holds TurboFan's memory.
 * @param onEvent subscribes to session events (`{ type }`); returns the unsubscribe.
 * @param set where the flag goes (tests); default `v8.setFlagsFromString`.
 */
export function optimizeWhenWorkBegins(
  onEvent: (listener: (event: { type: string }) => void) => () => void,
  set: (flag: string) => void = setFlagsFromString,
): WorkWatch {
  let done = false;
  let unsubscribe = (): void => {};
  const stop = (): void => {
    done = true;
    unsubscribe();
  };
  const begin = (): void => {
    if (done) return;
    stop();
    for (const flag of FULL_OPTIMISATION_FLAGS) set(flag);
  };
  unsubscribe = onEvent((event) => {
    if (WORK_EVENTS.has(event.type)) begin();
  });
  if (done) unsubscribe(); // the subscription delivered a turn event at once
  return { begin, stop };
}
