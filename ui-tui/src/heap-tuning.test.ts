import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import {
  FULL_OPTIMISATION_FLAGS,
  optimizeWhenWorkBegins,
  TUI_V8_FLAGS,
  tuneHeapForTui,
} from './heap-tuning.js';

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

/** A V8 flag's default in this Node (`node --v8-options`). */
function v8Default(flag: string): string {
  const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
  const m = new RegExp(`default: ${flag}=(\\S+)`).exec(options);
  if (!m) throw new Error(`no default for ${flag}`);
  return m[1]!;
}

describe('tuneHeapForTui', () => {
  it('gives WebAssembly a larger tier-up budget while starting, and V8 its own back once work begins', () => {
    const start = TUI_V8_FLAGS.find((f) => f.startsWith('--wasm-tiering-budget='));
    const later = FULL_OPTIMISATION_FLAGS.find((f) => f.startsWith('--wasm-tiering-budget='));
    expect(start).toBeDefined();
    expect(later).toBe(`--wasm-tiering-budget=${v8Default('--wasm-tiering-budget')}`);
    expect(Number(start!.split('=')[1])).toBeGreaterThanOrEqual(10 * Number(later!.split('=')[1]));
  });

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

/** Session events as the client emits them: `on` returns the unsubscribe. */
function eventSource(): {
  on: (l: (e: { type: string }) => void) => () => void;
  emit: (type: string) => void;
  count: () => number;
} {
  const bus = new EventEmitter();
  return {
    on: (l) => {
      bus.on('event', l);
      return () => bus.off('event', l);
    },
    emit: (type) => bus.emit('event', { type }),
    count: () => bus.listenerCount('event'),
  };
}

describe('optimizeWhenWorkBegins', () => {
  it('caps optimisation while starting, and lifts the cap once, at the first submitted line', () => {
    expect(TUI_V8_FLAGS).toContain('--max-opt=1');
    const events = eventSource();
    const set: string[] = [];
    const work = optimizeWhenWorkBegins(events.on, (f) => set.push(f));
    events.emit('session.info'); // not a turn: still capped
    expect(set).toEqual([]);
    work.begin();
    work.begin();
    events.emit('message.delta');
    expect(set).toEqual([...FULL_OPTIMISATION_FLAGS]);
    expect(events.count()).toBe(0); // stopped watching
  });

  it.each(['turn.start', 'message.delta', 'reasoning.delta'])('lifts the cap at a %s event', (type) => {
    const events = eventSource();
    const set: string[] = [];
    optimizeWhenWorkBegins(events.on, (f) => set.push(f));
    events.emit(type);
    events.emit(type);
    expect(set).toEqual([...FULL_OPTIMISATION_FLAGS]);
    expect(events.count()).toBe(0);
  });

  it('stop() ends the watch without lifting the cap', () => {
    const events = eventSource();
    const set: string[] = [];
    const work = optimizeWhenWorkBegins(events.on, (f) => set.push(f));
    work.stop();
    events.emit('turn.start');
    work.begin();
    expect(set).toEqual([]);
    expect(events.count()).toBe(0);
  });

  it("is V8's own flag: a function made hot before and after the cap is lifted (set at run time)", () => {
    const script = `
      const v8 = require('node:v8');
      v8.setFlagsFromString('--allow-natives-syntax');
      for (const f of ${JSON.stringify(TUI_V8_FLAGS)}) v8.setFlagsFromString(f);
      const turbofanned = new Function('f', 'return (%GetOptimizationStatus(f) & 16) !== 0');
      const hot = (f) => { let s = 0; for (let i = 0; i < 3e5; i++) s += f(i); return s; };
      const a = (x) => x * 2 + 1;
      for (let k = 0; k < 20; k++) hot(a);
      const before = turbofanned(a);
      for (const f of ${JSON.stringify(FULL_OPTIMISATION_FLAGS)}) v8.setFlagsFromString(f);
      const b = (x) => x * 3 + 1;
      const deadline = Date.now() + 5000;
      while (!turbofanned(b) && Date.now() < deadline) hot(b);
      process.stdout.write(JSON.stringify([before, turbofanned(b)]));
    `;
    expect(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))).toEqual([
      false,
      true,
    ]);
  });
});
