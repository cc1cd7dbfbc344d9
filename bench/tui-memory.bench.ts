/**
 * TUI memory benchmarks: the resident set of the `hermes tui` process (its own pid, read from
 * /proc/<pid>/status), in real terminals (tmux, 120×40) against a running daemon and the scripted
 * model, as `hermes tui` runs it (the bundled app). Goals are the issue's, medians on 2 cores.
 * - `tui.rss.idle`: a new, empty session, idle for 2 s after the composer showed (markdown and
 *   everything loaded after the first frame included) (goal ≤ 60 MB);
 * - `tui.rss.reply_20k`: after one 20,000-token reply streamed in and was printed, 2 s later
 *   (goal ≤ 100 MB); `…reply_20k.peak`: the highest resident set during it (VmHWM);
 * - `tui.rss.attach_10k`: right after attaching a 10,000-message session (goal ≤ 110 MB);
 * - `tui.rss.history_10k.peak`: the highest resident set (VmHWM) while `/history 500` pages back
 *   from the attach snapshot to the first of 10,000 messages (goal ≤ 150 MB); `…settled`: the
 *   resident set 2 s after the first message is on screen.
 */
import type { Benchmark } from './lib/types.js';
import { idle, peakMb, replyOf, rssMb, seedSession, tuiPid, world, type World } from './tui/terminal.js';

const IDLE_RUNS = 5;
const HEAVY_RUNS = 3;
/** How long a TUI is left alone before its resident set is read, ms. */
const SETTLE_MS = 2_000;

const composerShown = (s: string): boolean => s.includes('Type a message');
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, SETTLE_MS));

/** Messages in the paged session, and how many the attach snapshot holds. */
const PAGED = 10_000;
const SNAPSHOT = 200;
const PAGE = 500;

/**
 * Pages `/history 500` from the snapshot back to the session's first message: each page ends in
 * the answer just older than the previous page (`part_N.ts`) above the footer.
 */
async function pageToFirst(w: World, target: string): Promise<void> {
  let oldest = PAGED - SNAPSHOT; // index of the oldest message loaded
  while (oldest > 0) {
    const last = oldest - 1; // the newest message of the next page: an answer (odd index)
    w.tmux.type(target, `/history ${PAGE}`, 'Enter');
    oldest = Math.max(0, oldest - PAGE);
    const footer = oldest === 0 ? 'the session starts here' : 'older ones: /history again';
    await w.until(target, (s) => s.includes(`part_${last}.ts`) && s.includes(footer) && idle(s), 60_000, 50);
  }
}

async function bothMb(pid: number): Promise<{ rss: number; peak: number }> {
  await settle();
  return { rss: rssMb(pid), peak: peakMb(pid) };
}

/**
 * Runs `runs` TUIs one after another in one world: `open` starts one and waits until it is ready
 * to be measured, then its resident set is read and its window closed.
 */
async function rssPerRun(
  made: Promise<World>,
  runs: number,
  open: (w: World, i: number) => Promise<string>,
): Promise<number[]> {
  const w = await made;
  const out: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const target = await open(w, i);
      out.push(rssMb(tuiPid(w.tmux, target)));
      w.tmux.run('kill-window', '-t', target);
    }
  } finally {
    await w.close();
  }
  return out;
}

let reply20k: { rss: number[]; peak: number[] } | null = null;
let history10k: { rss: number[]; peak: number[] } | null = null;

async function measureReply20k(): Promise<{ rss: number[]; peak: number[] }> {
  const w = await world();
  const out = { rss: [] as number[], peak: [] as number[] };
  try {
    for (let i = 0; i < HEAVY_RUNS; i++) {
      const target = w.openTui(`reply${i}`, '--new');
      await w.until(target, (s) => composerShown(s) && idle(s), 20_000);
      const pid = tuiPid(w.tmux, target);
      const last = `RSSFINAL${i}X`;
      w.model.push({ text: replyOf(20_000, last), chunkSize: 64, delayMs: 1 });
      w.tmux.type(target, `long reply ${i}`, 'Enter');
      await w.until(target, (s) => s.includes(last) && idle(s), 120_000, 20);
      const m = await bothMb(pid);
      out.rss.push(m.rss);
      out.peak.push(m.peak);
      w.tmux.run('kill-window', '-t', target);
    }
  } finally {
    await w.close();
  }
  return out;
}

async function measureHistory10k(): Promise<{ rss: number[]; peak: number[] }> {
  const w = await world((root) => void seedSession(root, 'paged-10k', PAGED));
  const out = { rss: [] as number[], peak: [] as number[] };
  try {
    for (let i = 0; i < HEAVY_RUNS; i++) {
      const target = w.openTui(`paged${i}`, '--session', 'paged-10k');
      await w.until(target, (s) => s.includes(`part_${PAGED - 1}.ts`) && idle(s), 30_000);
      const pid = tuiPid(w.tmux, target);
      await pageToFirst(w, target);
      const m = await bothMb(pid);
      out.rss.push(m.rss);
      out.peak.push(m.peak);
      w.tmux.run('kill-window', '-t', target);
    }
  } finally {
    await w.close();
  }
  return out;
}

export const benchmarks: Benchmark[] = [
  {
    name: 'tui.rss.idle',
    unit: 'MB',
    goal: 60,
    run: () =>
      rssPerRun(world(), IDLE_RUNS, async (w, i) => {
        const target = w.openTui(`idle${i}`, '--new');
        await w.until(target, (s) => composerShown(s) && idle(s), 20_000);
        await settle();
        return target;
      }),
  },
  {
    name: 'tui.rss.reply_20k',
    unit: 'MB',
    goal: 100,
    async run() {
      reply20k = await measureReply20k();
      return reply20k.rss;
    },
  },
  {
    name: 'tui.rss.reply_20k.peak',
    unit: 'MB',
    async run() {
      reply20k ??= await measureReply20k();
      return reply20k.peak;
    },
  },
  {
    name: 'tui.rss.attach_10k',
    unit: 'MB',
    goal: 110,
    run: () =>
      rssPerRun(
        world((root) => void seedSession(root, 'transcript-10k', PAGED)),
        HEAVY_RUNS,
        async (w, i) => {
          const target = w.openTui(`rss${i}`, '--session', 'transcript-10k');
          await w.until(target, (s) => s.includes(`part_${PAGED - 1}.ts`) && idle(s), 30_000);
          return target;
        },
      ),
  },
  {
    name: 'tui.rss.history_10k.peak',
    unit: 'MB',
    goal: 150,
    async run() {
      history10k = await measureHistory10k();
      return history10k.peak;
    },
  },
  {
    name: 'tui.rss.history_10k.settled',
    unit: 'MB',
    async run() {
      history10k ??= await measureHistory10k();
      return history10k.rss;
    },
  },
];
