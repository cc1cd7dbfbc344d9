import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { TUI_V8_FLAGS, tuneHeapForTui } from './heap-tuning.js';

/** A fresh Node process that allocates 200 MB of short-lived objects; prints its young generation size, MiB. */
function youngGenerationMb(tune: boolean): number {
  const script = `
    const v8 = require('node:v8');
    if (${tune}) for (const f of ${JSON.stringify(TUI_V8_FLAGS)}) v8.setFlagsFromString(f);
    let keep = [];
    for (let i = 0; i < 2e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 50000) keep = []; }
    const ns = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(ns.space_size / 1048576));
  `;
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

describe('tuneHeapForTui', () => {
  it('sets every flag, in order', () => {
    const seen: string[] = [];
    tuneHeapForTui((f) => seen.push(f));
    expect(seen).toEqual([...TUI_V8_FLAGS]);
  });

  it('keeps the young generation small in a process that allocates a lot (set at run time)', () => {
    const tuned = youngGenerationMb(true);
    const untuned = youngGenerationMb(false);
    expect(tuned).toBeLessThanOrEqual(4);
    expect(untuned).toBeGreaterThan(tuned); // the defaults grow it (to 16–32 MiB)
  });
});
