/**
 * Runs the tool calls of one model response: consecutive read-only calls run
 * concurrently (at most `MAX_PARALLEL_TOOLS` at once), any other call runs alone, in order.
 * Results come back in the order the model asked for them.
 */

/** Most tool calls running at once (8 workers, as the original). */
export const MAX_PARALLEL_TOOLS = 8;

/**
 * @param calls the calls, in the model's order.
 * @param isReadOnly whether a call may run beside others.
 * @param run runs one call; must not throw (errors become results).
 * @param onResult called as each result is final *and* every earlier result is too (in order).
 * @returns the results, index-aligned with `calls`.
 */
export async function scheduleToolCalls<C, R>(
  calls: readonly C[],
  isReadOnly: (call: C) => boolean,
  run: (call: C, index: number) => Promise<R>,
  onResult?: (result: R, index: number) => void,
  limit = MAX_PARALLEL_TOOLS,
): Promise<R[]> {
  const results: R[] = new Array<R>(calls.length);
  let i = 0;
  while (i < calls.length) {
    if (!isReadOnly(calls[i]!)) {
      results[i] = await run(calls[i]!, i);
      onResult?.(results[i]!, i);
      i++;
      continue;
    }
    let end = i;
    while (end < calls.length && isReadOnly(calls[end]!)) end++;
    await runPool(i, end, limit, async (k) => {
      results[k] = await run(calls[k]!, k);
    });
    for (let k = i; k < end; k++) onResult?.(results[k]!, k);
    i = end;
  }
  return results;
}

async function runPool(
  start: number,
  end: number,
  limit: number,
  work: (k: number) => Promise<void>,
): Promise<void> {
  let next = start;
  const worker = async (): Promise<void> => {
    while (next < end) {
      const k = next++;
      await work(k);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, end - start) }, worker));
}
