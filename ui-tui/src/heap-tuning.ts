/**
 * V8 heap settings for the TUI process, set by `runTui` before Ink and the app load.
 *
 * A TUI allocates in bursts (a frame of a streaming reply, a page of `/history` printed at once)
 * and then sits idle for minutes. With V8's defaults each burst grows the young generation to
 * 32 MiB and the old one by large steps, and the process keeps that memory while idle. These
 * flags trade a little CPU (more, smaller collections) for a resident set about half as large:
 * - `--optimize-for-size`: smaller heap growing steps, memory favoured over speed;
 * - `--max-semi-space-size=1`, `--semi-space-growth-factor=1`: a young generation of 1 MiB
 *   semi-spaces that does not grow (short-lived frame garbage is collected often and cheaply).
 * They are V8 flags that take effect when set at run time (`v8.setFlagsFromString`), so the
 * `hermes` launcher needs no re-exec and no `NODE_OPTIONS`. The daemon is another process and
 * keeps V8's defaults (its throughput matters more than its size).
 */
import { setFlagsFromString } from 'node:v8';

/** The flags `tuneHeapForTui` sets, in order. */
export const TUI_V8_FLAGS: readonly string[] = [
  '--optimize-for-size',
  '--max-semi-space-size=1',
  '--semi-space-growth-factor=1',
];

/**
 * Applies `TUI_V8_FLAGS` to this process (once is enough; again is harmless). Call it before
 * loading the app, so the heap never grows to the default sizes first.
 * @param set where flags go (tests); default `v8.setFlagsFromString`.
 */
export function tuneHeapForTui(set: (flag: string) => void = setFlagsFromString): void {
  for (const flag of TUI_V8_FLAGS) set(flag);
}
