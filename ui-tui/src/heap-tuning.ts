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
 * They are V8 flags that take effect when set at run time (`v8.setFlagsFromString`), so the
 * `hermes` launcher needs no re-exec and no `NODE_OPTIONS`. The daemon is another process and
 * keeps V8's defaults (its throughput matters more than its size).
 */
import { setFlagsFromString } from 'node:v8';

/** The flags `tuneHeapForTui` sets, in order. */
export const TUI_V8_FLAGS: readonly string[] = [
  '--max-semi-space-size=1',
  '--semi-space-growth-factor=1',
  '--heap-growing-percent=50',
];

/**
 * Applies `TUI_V8_FLAGS` to this process (once is enough; again is harmless). Call it before
 * loading the app, so the heap never grows to the default sizes first.
 * @param set where flags go (tests); default `v8.setFlagsFromString`.
 */
export function tuneHeapForTui(set: (flag: string) => void = setFlagsFromString): void {
  for (const flag of TUI_V8_FLAGS) set(flag);
}
