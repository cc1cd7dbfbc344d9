/**
 * Messaging pipeline benchmarks (method in platforms/pipeline.ts); run with
 * `npm run bench -- --filter platforms`.
 *
 * - `platforms.pipeline.<C>.throughput`: messages/s from a fake platform through the pipeline,
 *   the delivery ledger (state.db) and a live session to the scripted model and back, with C = 1,
 *   10, 100 concurrent senders (each sends its next message once the previous one is answered).
 * - `platforms.pipeline.<C>.overhead_p99`: p99 of inbound → reply sent, less the model's own time.
 */
import type { Benchmark } from './lib/types.js';
import { measurePipeline, type PipelineRun } from './platforms/pipeline.js';

function memo<T>(f: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
}

function pipelineBenchmarks(senders: number): Benchmark[] {
  const runs = memo<PipelineRun[]>(() => measurePipeline(senders));
  return [
    {
      name: `platforms.pipeline.${senders}.throughput`,
      unit: 'msg/s',
      higherIsBetter: true,
      run: async () => (await runs()).map((r) => r.throughput),
    },
    {
      name: `platforms.pipeline.${senders}.overhead_p99`,
      unit: 'ms',
      run: async () => (await runs()).map((r) => r.overheadP99Ms),
    },
  ];
}

export const benchmarks: Benchmark[] = [1, 10, 100].flatMap(pipelineBenchmarks);
