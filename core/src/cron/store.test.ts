/** The tick's fast path: picking lines from raw bytes and rewriting only them (store.mutateSelected). */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decideDue, selectDueLines } from './due.js';
import {
  canonicalJobLines,
  CronStore,
  CronStoreCorruptError,
  parseJobsText,
  renderJobsFile,
} from './store.js';
import { cronTestContext, makeJob, testClock } from './testing.js';
import type { CronJob } from './types.js';

const NOW = Date.parse('2026-11-29T10:00:00.000Z');
const at = (offsetMin: number): string => new Date(NOW + offsetMin * 60_000).toISOString();

function sample(): CronJob[] {
  return [
    makeJob({ id: 'a00000000001', next_run_at: at(5) }),
    makeJob({
      id: 'a00000000002',
      next_run_at: at(-1),
      prompt: 'has "quotes" and \n newlines "next_run_at":"x"',
    }),
    makeJob({ id: 'a00000000003', next_run_at: null, state: 'paused', enabled: false }),
    makeJob({
      id: 'a00000000004',
      next_run_at: at(60),
      running: { pid: 1, host: 'h', since: at(-3), for_time: null },
    }),
    makeJob({ id: 'a00000000005', next_run_at: '2026-11-29T10:59:00+01:00' }), // = 09:59Z: due
    makeJob({ id: 'a00000000006', next_run_at: at(0) }),
  ];
}

describe('selectDueLines', () => {
  it('picks due and running lines from the raw bytes, whatever the prompts contain', () => {
    const buf = Buffer.from(renderJobsFile(sample(), NOW));
    const ranges = canonicalJobLines(buf)!;
    expect(ranges).toHaveLength(6);
    expect(selectDueLines(buf, ranges, NOW)).toEqual([1, 3, 4, 5]);
  });

  it('picks an enabled, scheduled job without a next run time (to recover it), not a paused one', () => {
    const jobs = [
      makeJob({ id: 'b00000000001', next_run_at: null }),
      makeJob({ id: 'b00000000002', next_run_at: null, state: 'paused', enabled: false }),
      makeJob({ id: 'b00000000003', next_run_at: null, state: 'completed', enabled: false }),
    ];
    const buf = Buffer.from(renderJobsFile(jobs, NOW));
    expect(selectDueLines(buf, canonicalJobLines(buf)!, NOW)).toEqual([0]);
  });

  it('recognises only the canonical shape', () => {
    expect(canonicalJobLines(Buffer.from(renderJobsFile([], NOW)))).toBeUndefined();
    expect(
      canonicalJobLines(Buffer.from(JSON.stringify({ version: 1, jobs: sample() }, null, 2))),
    ).toBeUndefined();
    const text = renderJobsFile(sample(), NOW);
    expect(canonicalJobLines(Buffer.from(text.slice(0, -5)))).toBeUndefined(); // truncated
  });
});

describe('CronStore.mutateSelected', () => {
  const claimAll = (jobs: CronJob[]) =>
    decideDue(jobs, { now: NOW, timeZone: 'UTC', claimant: { pid: 7, host: 'h' }, isAlive: () => true });

  it('rewrites only the picked lines and leaves the others byte for byte', async () => {
    const ctx = cronTestContext(testClock(NOW));
    writeFileSync(ctx.home.cronJobsFile, renderJobsFile(sample(), NOW - 1000));
    const before = readFileSync(ctx.home.cronJobsFile, 'utf8').split('\n');
    const store = new CronStore(ctx.home, () => NOW);
    const d = await store.mutateSelected((buf, ranges) => selectDueLines(buf, ranges, NOW), claimAll);
    expect(d.due.map((j) => j.id).sort()).toEqual(['a00000000002', 'a00000000005', 'a00000000006']);
    expect(d.skippedRunning).toEqual([]);

    const after = readFileSync(ctx.home.cronJobsFile, 'utf8').split('\n');
    expect(after[0]).toContain(new Date(NOW).toISOString());
    for (const i of [1, 3]) expect(after[i]).toBe(before[i]); // a00…01 and a00…03 were not picked
    // the same result as a full read-modify-write
    const full = sample();
    claimAll(full);
    expect(parseJobsText(after.join('\n'))).toEqual(full.map((j) => parseJobsText(JSON.stringify([j]))[0]));
  });

  it('falls back to a full parse for hand-edited files, with the same decisions', async () => {
    const ctx = cronTestContext(testClock(NOW));
    writeFileSync(ctx.home.cronJobsFile, JSON.stringify({ jobs: sample() }, null, 2));
    const d = await new CronStore(ctx.home, () => NOW).mutateSelected(
      (buf, ranges) => selectDueLines(buf, ranges, NOW),
      claimAll,
    );
    expect(d.due.map((j) => j.id).sort()).toEqual(['a00000000002', 'a00000000005', 'a00000000006']);
    expect(canonicalJobLines(readFileSync(ctx.home.cronJobsFile))).toHaveLength(6); // now canonical
  });

  it('reports a corrupt picked line without touching the file', async () => {
    const ctx = cronTestContext(testClock(NOW));
    const text = renderJobsFile(sample(), NOW).replace('"id":"a00000000002"', '"id":a00000000002"');
    writeFileSync(ctx.home.cronJobsFile, text);
    await expect(
      new CronStore(ctx.home, () => NOW).mutateSelected(
        (buf, ranges) => selectDueLines(buf, ranges, NOW),
        claimAll,
      ),
    ).rejects.toBeInstanceOf(CronStoreCorruptError);
    expect(readFileSync(ctx.home.cronJobsFile, 'utf8')).toBe(text);
  });
});
