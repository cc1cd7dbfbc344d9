/**
 * What the TUI costs a user over a day, in real terminals (tmux, 120×40) against the scripted
 * model (tui.bench.ts has launch-to-composer and the 2,000-token overhead; tui-memory.bench.ts the
 * resident set):
 * - `tui.launch.cold_echo`: the daemon NOT running; launching `hermes tui` until a key typed as
 *   soon as the composer shows is on screen (the daemon is stopped before each run);
 * - `tui.launch.app_ready`: the daemon running; launching until `/` typed as soon as the composer
 *   shows opens the command popup (the real composer handles keys, not only the first frame);
 * - `tui.stream.cpu_per_s`: CPU-seconds the TUI spends on a ~1.1 s, ~1,850-word reply (from
 *   Enter until it is idle again, the reply printed whole), per wall-second of the model's own
 *   stream (request arrival → last byte, measured by the model server); goal ≤ 0.5.
 *   `tui.stream.daemon_cpu_per_s`: the daemon's, the same way;
 * - `tui.stream.last_byte`: the model server's last byte of the reply → its last word on screen
 *   (the pane is captured each time it prints, `World.untilPrinted`: this includes a capture of
 *   latency, well under a ms here);
 * - `tui.multi.overhead_1|2|4`: Enter → last word on screen in every one of N TUIs attached to the
 *   same session, minus the model's own stream time (the same ~1.1 s reply).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHermes } from '../tests/support/hermes-cli.js';
import type { Benchmark } from './lib/types.js';
import { cpuMs, idle, launchTimes, replyOf, STREAM, tuiPid, world, type World } from './tui/terminal.js';

const LAUNCH_RUNS = 7;
const STREAM_RUNS = 5;
/** The overhead of N TUIs is a few ms against a ~1.2 s reply: more samples for a steady median. */
const MULTI_RUNS = 11;
/** The end of a stream is a few ms against tmux's capture latency: more samples. */
const LAST_BYTE_RUNS = 15;

const composerShown = (s: string): boolean => s.includes('Type a message') || s.includes('│ › ');

/** The daemon's pid, from its discovery file. */
function daemonPid(root: string): number {
  return (JSON.parse(readFileSync(join(root, 'tui-gateway.json'), 'utf8')) as { pid: number }).pid;
}

/** Opens a TUI on a new session and waits until it is attached and idle; returns its target. */
async function openIdle(w: World, name: string, ...args: string[]): Promise<string> {
  const target = w.openTui(name, ...args);
  await w.until(target, (s) => composerShown(s) && idle(s), 30_000);
  return target;
}

/** One streamed reply typed into `target`; resolves with the times (ms) once it is on screen in all `panes`. */
async function streamOnce(
  w: World,
  target: string,
  panes: string[],
  last: string,
): Promise<{ wallMs: number; modelMs: number; lastByteToScreenMs: number }> {
  w.model.push({ text: replyOf(STREAM.tokens, last), chunkSize: STREAM.chunkSize, delayMs: STREAM.delayMs });
  const n = w.model.requests.length;
  const t0 = Date.now();
  w.tmux.type(target, `reply ${w.model.requests.length}`, 'Enter');
  const seen = await Promise.all(panes.map((p) => w.untilPrinted(p, (s) => s.includes(last), 60_000)));
  const t1 = Date.now() - (performance.now() - Math.max(...seen));
  const req = w.model.requests[n]!;
  await Promise.all(panes.map((p) => w.until(p, idle, 30_000)));
  if (!req.finishedAt) throw new Error('the model server did not record the end of the stream');
  return { wallMs: t1 - t0, modelMs: req.finishedAt - req.at, lastByteToScreenMs: t1 - req.finishedAt };
}

/** Opens a TUI on a new session, warms it with a short reply; returns its target. */
async function warmTui(w: World, name: string): Promise<string> {
  const target = await openIdle(w, name, '--new');
  w.model.push({ text: 'warm-up reply' });
  w.tmux.type(target, 'warm up', 'Enter');
  await w.until(target, (s) => s.includes('warm-up reply') && idle(s));
  return target;
}

/** N TUIs on one session: the median Enter → last word in all of them, less the model's time (s). */
async function multiOverhead(n: number): Promise<number[]> {
  const w = await world();
  const out: number[] = [];
  try {
    const first = await warmTui(w, 'multi0');
    const panes = [first];
    for (let i = 1; i < n; i++) panes.push(await openIdle(w, `multi${i}`)); // --continue: the same session
    for (const p of panes) await w.until(p, (s) => s.includes('warm-up reply') && idle(s), 30_000);
    for (let i = 0; i < MULTI_RUNS; i++) {
      const r = await streamOnce(w, first, panes, `MULTI${n}END${i}X`);
      out.push((r.wallMs - r.modelMs) / 1000);
    }
  } finally {
    await w.close();
  }
  return out;
}

/** Stream runs measuring one figure each time (`pick`) in a single warmed TUI. */
async function streamRuns(
  runs: number,
  pick: (r: {
    wallMs: number;
    modelMs: number;
    lastByteToScreenMs: number;
    tuiCpuMs: number;
    daemonCpuMs: number;
  }) => number,
): Promise<number[]> {
  const w = await world();
  const out: number[] = [];
  try {
    const target = await warmTui(w, 'stream');
    const pid = tuiPid(w.tmux, target);
    const dpid = daemonPid(w.root);
    for (let i = 0; i < runs; i++) {
      const c0 = cpuMs(pid);
      const d0 = cpuMs(dpid);
      const r = await streamOnce(w, target, [target], `STREAMEND${i}X`);
      out.push(pick({ ...r, tuiCpuMs: cpuMs(pid) - c0, daemonCpuMs: cpuMs(dpid) - d0 }));
    }
  } finally {
    await w.close();
  }
  return out;
}

export const benchmarks: Benchmark[] = [
  {
    name: 'tui.launch.cold_echo',
    unit: 'ms',
    async run() {
      const w = await world();
      try {
        return await launchTimes(w, {
          name: 'cold',
          runs: LAUNCH_RUNS,
          composer: composerShown,
          key: 'x',
          done: (s) => s.includes('│ › x'),
          // the daemon is stopped before each launch
          before: async () => {
            const stopped = await runHermes(w.root, ['gateway', 'stop']);
            if (stopped.code !== 0) throw new Error(`hermes gateway stop failed: ${stopped.stderr}`);
          },
          intervalMs: 2,
          timeoutMs: 30_000,
        });
      } finally {
        await w.close();
      }
    },
  },
  {
    name: 'tui.launch.app_ready',
    unit: 'ms',
    goal: 250,
    async run() {
      const w = await world();
      try {
        const done = (s: string): boolean => s.includes('/help');
        return await launchTimes(w, {
          name: 'ready',
          runs: LAUNCH_RUNS,
          composer: composerShown,
          key: '/',
          done,
          intervalMs: 2,
        });
      } finally {
        await w.close();
      }
    },
  },
  {
    name: 'tui.stream.cpu_per_s',
    unit: 'CPU-s/s',
    goal: 0.5,
    run: () => streamRuns(STREAM_RUNS, (r) => r.tuiCpuMs / r.modelMs),
  },
  {
    name: 'tui.stream.daemon_cpu_per_s',
    unit: 'CPU-s/s',
    run: () => streamRuns(STREAM_RUNS, (r) => r.daemonCpuMs / r.modelMs),
  },
  {
    name: 'tui.stream.last_byte',
    unit: 'ms',
    goal: 16,
    run: () => streamRuns(LAST_BYTE_RUNS, (r) => r.lastByteToScreenMs),
  },
  { name: 'tui.multi.overhead_1', unit: 's', run: () => multiOverhead(1) },
  { name: 'tui.multi.overhead_2', unit: 's', run: () => multiOverhead(2) },
  { name: 'tui.multi.overhead_4', unit: 's', run: () => multiOverhead(4) },
];
