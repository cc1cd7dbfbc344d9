/** The contract between benchmark files (`bench/*.bench.ts`) and the runner (`bench/run.ts`). */

/** One measured quantity. The runner reports the median of `run()`'s samples. */
export interface Benchmark {
  /** Stable id, e.g. `sessiondb.append.1proc`; the baseline is keyed by it. */
  name: string;
  /** Unit of each sample, e.g. `ms`, `ops/s`, `MB`. */
  unit: string;
  /** True when a larger sample is better (throughput); false for times and sizes. */
  higherIsBetter?: boolean;
  /** The goal named in an issue, in `unit` (e.g. 5000 appends/s, 20 ms). */
  goal?: number;
  /** Runs the measurement and returns the samples (at least 1; usually 5-20). */
  run(): Promise<number[]>;
}
