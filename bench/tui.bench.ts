/**
 * TUI benchmarks, in real terminals (tmux, 120×40) against a running daemon and
 * the scripted model; panes are polled every 5 ms without blocking the event loop.
 * - `tui.launch.composer`: launching `hermes tui` (daemon already running) until the composer is
 *   on screen (goal ≤ 350 ms); the first frame is painted before Ink loads (ui-tui/src/splash.ts);
 * - `tui.launch.interactive`: launching until a key typed as soon as the composer shows is echoed
 *   by the running app (Ink loaded, input handled);
 * - `tui.stream.overhead_2k`: Enter until the last word of a 2,000-token reply is on screen, minus
 *   the model's own stream time (request arrival to end of stream, measured by the model server
 *   in the same run; goal ≤ 0.1 s);
 * - `tui.stream.cpu_20k_on_2k`: CPU time (user + system) the TUI spends streaming a 20,000-token
 *   reply onto a 2,000-message session.
 * The TUI's memory is measured in tui-memory.bench.ts.
 */
import type { Benchmark } from './lib/types.js';
import { cpuMs, cpuSettled, idle, launchTimes, replyOf, seedSession, tuiPid, world } from './tui/terminal.js';

const LAUNCH_RUNS = 10;
const STREAM_RUNS = 5;
const HEAVY_RUNS = 3;

const composerShown = (s: string): boolean => s.includes('Type a message');

export const benchmarks: Benchmark[] = [
  {
    name: 'tui.launch.composer',
    unit: 'ms',
    goal: 350,
    async run() {
      const w = await world((root) => void seedSession(root, 'launch', 20));
      const out: number[] = [];
      try {
        for (let i = 0; i <= LAUNCH_RUNS; i++) {
          const t0 = performance.now();
          const target = w.openTui(`launch${i}`);
          const t1 = await w.until(target, composerShown, 20_000);
          await w.until(target, idle, 20_000); // attached: the next launch starts from a quiet daemon
          w.tmux.run('kill-window', '-t', target);
          if (i > 0) out.push(t1 - t0); // the first run warms the file cache
        }
      } finally {
        await w.close();
      }
      return out;
    },
  },
  {
    name: 'tui.launch.interactive',
    unit: 'ms',
    async run() {
      // launch until a key typed as soon as the composer shows is echoed by the app (Ink running)
      const w = await world((root) => void seedSession(root, 'launch', 20));
      try {
        const done = (s: string): boolean => s.includes('│ › x');
        return await launchTimes(w, {
          name: 'typed',
          runs: LAUNCH_RUNS,
          composer: composerShown,
          key: 'x',
          done,
        });
      } finally {
        await w.close();
      }
    },
  },
  {
    name: 'tui.stream.overhead_2k',
    unit: 's',
    goal: 0.1,
    async run() {
      const w = await world();
      const out: number[] = [];
      try {
        const target = w.openTui('stream', '--new');
        await w.until(target, (s) => composerShown(s) && idle(s), 20_000);
        w.model.push({ text: 'warm-up reply' });
        w.tmux.type(target, 'warm up', 'Enter');
        await w.until(target, (s) => s.includes('warm-up reply') && idle(s));
        for (let i = 0; i < STREAM_RUNS; i++) {
          const last = `FINALWORD${i}X`;
          w.model.push({ text: replyOf(2_000, last), chunkSize: 40, delayMs: 10 });
          const n = w.model.requests.length;
          const t0 = Date.now();
          w.tmux.type(target, `reply ${i}`, 'Enter');
          await w.until(target, (s) => s.includes(last), 60_000);
          const t1 = Date.now();
          const req = w.model.requests[n]!;
          await w.until(target, idle, 30_000);
          if (!req.finishedAt) throw new Error('the model server did not record the end of the stream');
          out.push((t1 - t0 - (req.finishedAt - req.at)) / 1000);
        }
      } finally {
        await w.close();
      }
      return out;
    },
  },
  {
    name: 'tui.stream.cpu_20k_on_2k',
    unit: 'ms',
    async run() {
      // one session per run, so each starts from the same 2,000 messages
      const w = await world((root) => {
        for (let i = 0; i < HEAVY_RUNS; i++) seedSession(root, `transcript-2k-${i}`, 2_000);
      });
      const out: number[] = [];
      try {
        for (let i = 0; i < HEAVY_RUNS; i++) {
          const target = w.openTui(`cpu${i}`, '--session', `transcript-2k-${i}`);
          await w.until(target, (s) => s.includes('part_1999.ts') && idle(s), 30_000);
          const pid = tuiPid(w.tmux, target);
          // the transcript's text can show (waiting for markdown) before it is printed: not counted
          await cpuSettled(pid);
          const last = `CPUFINAL${i}X`;
          w.model.push({ text: replyOf(20_000, last), chunkSize: 64, delayMs: 1 });
          const before = cpuMs(pid);
          w.tmux.type(target, `long reply ${i}`, 'Enter');
          await w.until(target, (s) => s.includes(last) && idle(s), 120_000, 20);
          out.push(cpuMs(pid) - before);
          w.tmux.run('kill-window', '-t', target);
        }
      } finally {
        await w.close();
      }
      return out;
    },
  },
];
