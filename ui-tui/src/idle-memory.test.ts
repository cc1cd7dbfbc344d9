import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  collectWhenIdle,
  FLUSH_CODE_OFF,
  FLUSH_CODE_ON,
  IDLE_COLLECT_MS,
  reduceMemory,
  watchReads,
  watchRequests,
} from './idle-memory.js';

describe('collectWhenIdle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A collector whose collections are recorded (`flushCode` of each). */
  function collector(busy = () => false) {
    const calls: boolean[] = [];
    const idle = collectWhenIdle({
      busy,
      collect: async ({ flushCode }) => {
        calls.push(flushCode);
      },
    });
    return { idle, calls };
  }

  it('collects once, flushing code, IDLE_COLLECT_MS after start-up, and not again while idle', () => {
    const { idle, calls } = collector();
    vi.advanceTimersByTime(IDLE_COLLECT_MS - 1);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual([true]);
    vi.advanceTimersByTime(IDLE_COLLECT_MS * 10);
    expect(calls).toEqual([true]);
    idle.stop();
  });

  it('waits while keys or events keep arriving, then collects once they stop', () => {
    const { idle, calls } = collector();
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(IDLE_COLLECT_MS / 2);
      idle.activity();
    }
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(IDLE_COLLECT_MS);
    expect(calls).toEqual([true]);
    idle.stop();
  });

  it('does not collect while a turn runs; collects (without flushing code) once it is over', () => {
    let busy = false;
    const { idle, calls } = collector(() => busy);
    vi.advanceTimersByTime(IDLE_COLLECT_MS);
    expect(calls).toEqual([true]); // start-up
    busy = true; // a turn starts (its events are activity too)
    idle.activity();
    vi.advanceTimersByTime(IDLE_COLLECT_MS * 5); // a silent model: still busy
    expect(calls).toEqual([true]);
    busy = false;
    vi.advanceTimersByTime(IDLE_COLLECT_MS);
    expect(calls).toEqual([true, false]);
    vi.advanceTimersByTime(IDLE_COLLECT_MS * 5);
    expect(calls).toEqual([true, false]);
    idle.stop();
  });

  it('never collects after stop (exit)', () => {
    const { idle, calls } = collector();
    vi.advanceTimersByTime(IDLE_COLLECT_MS / 2);
    idle.stop();
    idle.activity();
    vi.advanceTimersByTime(IDLE_COLLECT_MS * 5);
    expect(calls).toEqual([]);
  });
});

describe('watchRequests', () => {
  it('counts requests until they are answered or fail, reporting each change, and restores request', async () => {
    const answers: Array<{ resolve: (v: string) => void; reject: (e: Error) => void }> = [];
    const client = {
      request: (method: string): Promise<string> =>
        new Promise<string>((resolve, reject) => answers.push({ resolve, reject })).then(
          (v) => `${method}:${v}`,
        ),
    };
    const original = client.request;
    let changes = 0;
    const watch = watchRequests(client, () => changes++);
    const a = client.request('session.history');
    const b = client.request('model.list');
    expect(watch.pending()).toBe(2);
    expect(changes).toBe(2);
    answers[0]!.resolve('page');
    expect(await a).toBe('session.history:page'); // the caller's answer is untouched
    expect(watch.pending()).toBe(1);
    answers[1]!.reject(new Error('gone'));
    await expect(b).rejects.toThrow('gone');
    expect(watch.pending()).toBe(0);
    expect(changes).toBe(4);
    watch.restore();
    expect(client.request).toBe(original);
  });

  it('keeps the idle collection away while a request waits for its answer', async () => {
    vi.useFakeTimers();
    try {
      let answer: () => void = () => {};
      const client = { request: (): Promise<void> => new Promise<void>((r) => (answer = r)) };
      const calls: boolean[] = [];
      const watch = watchRequests(client, () => idle.activity());
      const idle = collectWhenIdle({
        busy: () => watch.pending() > 0,
        collect: async ({ flushCode }) => {
          calls.push(flushCode);
        },
      });
      const page = client.request(); // a page of /history the daemon takes long to answer
      vi.advanceTimersByTime(IDLE_COLLECT_MS * 5);
      expect(calls).toEqual([]);
      answer();
      await page;
      await Promise.resolve(); // the count settles after the caller's answer
      vi.advanceTimersByTime(IDLE_COLLECT_MS - 1);
      expect(calls).toEqual([]); // the answer is activity: rendering it is not interrupted
      vi.advanceTimersByTime(1);
      expect(calls).toEqual([true]);
      idle.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('watchReads', () => {
  it('reports each chunk read from the stream and restores read', () => {
    const stream = new PassThrough();
    const original = stream.read;
    let seen = 0;
    const unwatch = watchReads(stream, () => seen++);
    stream.write('a');
    expect(String(stream.read())).toBe('a');
    expect(stream.read()).toBeNull(); // nothing left: not activity
    expect(seen).toBe(1);
    unwatch();
    expect(stream.read).toBe(original);
  });
});

/**
 * Runs `body` (an async ESM module body, with `reduceMemory` and `collectWhenIdle` of this file
 * imported) in a fresh Node process; returns its stdout. Throws when it does not exit in 30 s.
 */
function inChild(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'idle-memory-'));
  const file = join(dir, 'child.mts');
  const here = new URL('./idle-memory.ts', import.meta.url).href;
  writeFileSync(file, `import { collectWhenIdle, reduceMemory } from ${JSON.stringify(here)};\n${body}`);
  try {
    return execFileSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 30_000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('reduceMemory', () => {
  it('sets code flushing on for the collection and back off after it', async () => {
    const set: string[] = [];
    await reduceMemory({ flushCode: true }, (f) => set.push(f));
    expect(set).toEqual([...FLUSH_CODE_ON, ...FLUSH_CODE_OFF]);
    const none: string[] = [];
    await reduceMemory({ flushCode: false }, (f) => none.push(f));
    expect(none).toEqual([]);
  });

  it('gives back the heap pages a burst of garbage left, and the process still exits', () => {
    // an ordinary collection frees the objects but keeps their pages committed; this one does not
    const out = inChild(`
      let keep = [];
      for (let i = 0; i < 300000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 100000) keep = []; }
      keep = null;
      const before = process.memoryUsage().heapTotal;
      await reduceMemory({ flushCode: true });
      const after = process.memoryUsage().heapTotal;
      process.stdout.write(JSON.stringify({ before, after }));
    `);
    const { before, after } = JSON.parse(out) as { before: number; after: number };
    expect(after).toBeLessThan(before);
  });

  it('lets the process exit while it waits for idleness (its timer is not a reason to stay)', () => {
    const out = inChild(`
      collectWhenIdle({ busy: () => false, delayMs: 60_000 });
      process.stdout.write('started');
    `);
    expect(out).toBe('started');
  });
});
