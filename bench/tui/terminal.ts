/**
 * What the TUI benchmarks share: a world (temp root, scripted model, running daemon, private tmux
 * server), async pane polling through a tmux control-mode client (the in-process model server
 * keeps streaming while we poll; no process spawned per poll), and
 * reading a process's CPU time and RSS from /proc.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SessionDB } from '@hermes/core/state';
import { startFakeModelServer, type FakeModelServer } from '../../tests/support/fake-model-server.js';
import { killDaemons } from '../../tests/support/gateway-process.js';
import { HERMES_BIN, makeTestHome, runHermes } from '../../tests/support/hermes-cli.js';
import { Tmux } from '../../tests/support/tmux.js';
import { TmuxControl } from './tmux-control.js';

/** A root with a daemon running against a scripted model, and a tmux server to open TUIs in. */
export interface World {
  root: string;
  model: FakeModelServer;
  tmux: Tmux;
  /** Opens `hermes tui ARGS` in a new window; returns its target. */
  openTui(name: string, ...args: string[]): string;
  /** Captures a pane without blocking the event loop. */
  capture(target: string): Promise<string>;
  /** Polls a pane every `intervalMs` until `test` holds; returns the time it did (performance.now()). */
  until(
    target: string,
    test: (screen: string) => boolean,
    timeoutMs?: number,
    intervalMs?: number,
  ): Promise<number>;
  /**
   * Like `until`, but captures the pane each time it has printed something (tmux's `%output`
   * notifications, through a second control client), and at least every `fallbackMs`. The same
   * screen is read as by polling, without capturing unchanged panes every few ms (four panes
   * polled every 2 ms kept tmux and the benchmark busy enough to slow the TUIs being measured) and
   * without waiting out a poll interval once the pane has printed.
   */
  untilPrinted(
    target: string,
    test: (screen: string) => boolean,
    timeoutMs?: number,
    fallbackMs?: number,
  ): Promise<number>;
  close(): Promise<void>;
}

/**
 * Builds a world. `prepare` runs before the daemon starts (e.g. to fill the state.db).
 */
export async function world(prepare: (root: string) => void = () => {}): Promise<World> {
  const model = await startFakeModelServer();
  const root = makeTestHome({ modelUrl: model.url });
  prepare(root);
  const started = await runHermes(root, ['gateway', 'start']);
  if (started.code !== 0) throw new Error(`hermes gateway start failed: ${started.stderr}`);
  const tmux = new Tmux(`hermes-bench-${process.pid}-${Date.now().toString(36)}`, { cols: 120, rows: 40 });
  const env = { HERMES_HOME: root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1' };
  tmux.open('base', ['sleep', '86400']); // keeps the tmux session while TUI windows come and go
  // polls go through one control-mode client: no process spawned per capture
  const control = new TmuxControl(tmux.socket, 'hermes');
  const capture = (target: string): Promise<string> => control.capture(target);
  // the panes' output notifications, on a client of their own (captures are not queued behind them)
  const watcher = new TmuxControl(tmux.socket, 'hermes', { output: true });
  const paneIds = new Map<string, string>();
  const paneId = (target: string): string => {
    let id = paneIds.get(target);
    if (!id) paneIds.set(target, (id = tmux.run('display-message', '-p', '-t', target, '#{pane_id}').trim()));
    return id;
  };
  return {
    root,
    model,
    tmux,
    openTui: (name, ...args) => tmux.open(name, [process.execPath, HERMES_BIN, 'tui', ...args], env),
    capture,
    until: (target, test, timeoutMs = 30_000, intervalMs = 5) =>
      pollScreen(capture, target, test, timeoutMs, () => () => new Promise((r) => setTimeout(r, intervalMs))),
    untilPrinted(target, test, timeoutMs = 30_000, fallbackMs = 50) {
      const pane = paneId(target);
      return pollScreen(capture, target, test, timeoutMs, () => {
        const seen = watcher.outputCount(pane); // output after this is read by a later capture
        return () => watcher.nextOutput(pane, seen, fallbackMs);
      });
    },
    async close() {
      watcher.close();
      control.close();
      tmux.kill();
      killDaemons(root);
      await model.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Captures `target` until `test` holds; returns the time it did (performance.now()). Before each
 * capture `beforeCapture` is called, and the function it returns waits before the next capture.
 * @throws Error naming the pane, with its last screen, after `timeoutMs`.
 */
async function pollScreen(
  capture: (target: string) => Promise<string>,
  target: string,
  test: (screen: string) => boolean,
  timeoutMs: number,
  beforeCapture: () => () => Promise<void>,
): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const wait = beforeCapture();
    const screen = await capture(target);
    const t = performance.now();
    if (test(screen)) return t;
    if (t > deadline) throw new Error(`timed out waiting on ${target}:\n${screen}`);
    await wait();
  }
}

/**
 * The builds an A/B script compares, from its arguments `NAME=/path/to/bin/hermes …` (in order).
 * @throws Error naming `script` when there is none or an argument is not of that form.
 */
export function buildsFromArgs(script: string, args = process.argv.slice(2)): Map<string, string> {
  const builds = new Map<string, string>();
  for (const arg of args) {
    const at = arg.indexOf('=');
    if (at <= 0) throw new Error(`expected NAME=/path/to/bin/hermes, got ${arg}`);
    builds.set(arg.slice(0, at), arg.slice(at + 1));
  }
  if (builds.size === 0) throw new Error(`usage: ${script} NAME=/path/to/bin/hermes …`);
  return builds;
}

/** The pid of the `hermes tui` node process of a pane. */
export function tuiPid(tmux: Tmux, target: string): number {
  const pid = tmux.pid(target);
  const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  if (!cmd.includes(HERMES_BIN))
    throw new Error(`pane ${target} runs ${cmd.replace(/\0/g, ' ')}, not hermes`);
  return pid;
}

/** User + system CPU time of a process, ms (from /proc/<pid>/stat, clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Waits until process `pid` is quiet: less than one clock tick (10 ms) of CPU over `quietMs`, so
 * work still under way (a transcript printing after its text already shows) is not counted by a
 * measurement that starts now. @throws after `timeoutMs`.
 */
export async function cpuSettled(pid: number, quietMs = 300, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const before = cpuMs(pid);
    await new Promise((r) => setTimeout(r, quietMs));
    if (cpuMs(pid) - before <= 10) return;
    if (Date.now() > deadline) throw new Error(`process ${pid} still busy after ${timeoutMs} ms`);
  }
}

/** A `Vm…` field of /proc/<pid>/status, MB. */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Resident set size of a process, MB (VmRSS). */
export function rssMb(pid: number): number {
  return statusMb(pid, 'VmRSS');
}

/** The highest resident set size of a process so far, MB (VmHWM, its high-water mark). */
export function peakMb(pid: number): number {
  return statusMb(pid, 'VmHWM');
}

/** The status bar of a screen (its last non-empty line). */
export function statusBar(screen: string): string {
  return (
    screen
      .split('\n')
      .filter((l) => l.trim())
      .pop() ?? ''
  );
}

/** The streamed reply of the stream benchmarks: ~1,850 words (≈ 11,000 characters) in 275 chunks of 40 characters, one every ~4 ms: ~1.1 s. */
export const STREAM = { tokens: 2_750, chunkSize: 40, delayMs: 4 };

/** A reply of about `tokens` tokens (4 characters each, as the fake model counts), ending in `last`. */
export function replyOf(tokens: number, last: string): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa', 'lambda'];
  const out: string[] = [];
  let chars = 0;
  for (let i = 0; chars < tokens * 4 - last.length; i++) {
    const w = i % 97 === 96 ? '\n\n' : words[i % words.length]!;
    out.push(w);
    chars += w.length + 1;
  }
  return `${out.join(' ')} ${last}`;
}

/**
 * Writes a session of `count` messages (user/assistant turns, a few lines each) straight into the
 * default profile's state.db. @returns the session's title.
 */
export function seedSession(root: string, title: string, count: number): string {
  const db = SessionDB.open(join(root, 'state.db'));
  try {
    const s = db.createSession({ source: 'tui', title, model: 'fake-model', cwd: root });
    const batch = [];
    for (let i = 0; i < count; i++) {
      batch.push(
        i % 2 === 0
          ? { role: 'user' as const, content: `question ${i}: how does part ${i} of the system work?` }
          : {
              role: 'assistant' as const,
              content: `Answer ${i}. Part ${i} reads its input, checks it, and writes a **result**.\n\n- step one\n- step two\n\nSee \`part_${i}.ts\`.`,
            },
      );
      if (batch.length === 500) db.appendMessages(s.id, batch.splice(0));
    }
    if (batch.length) db.appendMessages(s.id, batch);
  } finally {
    db.close();
  }
  return title;
}

/** Whether the status bar says the TUI is attached and idle. */
export function idle(screen: string): boolean {
  const bar = statusBar(screen);
  return bar.includes('◇ idle') && bar.includes('● connected');
}

/** What `launchTimes` launches and times. */
export interface LaunchTiming {
  /** Window name prefix (a number is appended per run). */
  name: string;
  /** Timed runs; one more untimed run comes first (it warms the file cache). */
  runs: number;
  /** When the composer is on screen (the key is typed then). */
  composer: (screen: string) => boolean;
  /** The key typed as soon as the composer shows. */
  key: string;
  /** When the key has had its effect: the time of this is the run's figure. */
  done: (screen: string) => boolean;
  /** Runs before each launch (e.g. stopping the daemon). */
  before?: () => Promise<void>;
  /** Poll interval, ms (default 5). */
  intervalMs?: number;
  /** Deadline of each wait, ms (default 20,000). */
  timeoutMs?: number;
}

/**
 * Launches `hermes tui` `runs + 1` times in `w`; each time until a key typed as soon as the
 * composer shows has had its effect; waits until idle and closes the window. @returns ms per run.
 */
export async function launchTimes(w: World, t: LaunchTiming): Promise<number[]> {
  const timeout = t.timeoutMs ?? 20_000;
  const out: number[] = [];
  for (let i = 0; i <= t.runs; i++) {
    await t.before?.();
    const t0 = performance.now();
    const target = w.openTui(`${t.name}${i}`);
    await w.until(target, t.composer, timeout, t.intervalMs);
    w.tmux.type(target, t.key);
    const t1 = await w.until(target, t.done, timeout, t.intervalMs);
    await w.until(target, idle, timeout);
    w.tmux.run('kill-window', '-t', target);
    if (i > 0) out.push(t1 - t0);
  }
  return out;
}
