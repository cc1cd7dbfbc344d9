/**
 * What a streamed reply costs two (or more) builds of `hermes tui`, interleaved in one run on one
 * daemon, so a shared, noisy machine loads them alike (tui-cost.bench.ts measures one build
 * against a saved baseline). Each build's TUI is opened on a session of its own and warmed; each
 * round then streams the same ~1,850-word reply (as `tui.stream.cpu_per_s`) to every build in
 * alternating order, one at a time, and takes the TUI's CPU time from Enter until it is idle
 * again, and the model's last byte → the last word on screen.
 *
 *   node --conditions=@hermes/source --import tsx bench/tui/stream-ab.ts \
 *     base=/path/to/main/bin/hermes new=bin/hermes
 *
 * `RUNS` (environment, default 10): rounds. Prints each build's medians and samples (CPU ms per
 * reply, last byte → last word ms), and its TUI's resident set 3 s after the last round (MB: what
 * the replies left behind).
 */
import { median } from '../lib/stats.js';
import { buildsFromArgs, cpuMs, idle, replyOf, rssMb, STREAM, world } from './terminal.js';

const builds = buildsFromArgs('stream-ab.ts');
const runs = Number(process.env.RUNS ?? 10);
/** Rounds per session: 15 replies of ~2,750 tokens stay under the compression threshold. */
const NEW_SESSION_EVERY = 15;

const w = await world();
const env = { HERMES_HOME: w.root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1' };
const cpu = new Map([...builds.keys()].map((k) => [k, [] as number[]]));
const lastByte = new Map([...builds.keys()].map((k) => [k, [] as number[]]));
const rss = new Map<string, number>();
try {
  const targets = new Map<string, string>();
  for (const [name, bin] of builds) {
    const target = w.tmux.open(`ab-${name}`, [process.execPath, bin, 'tui', '--new'], env);
    await w.until(target, (s) => s.includes('Type a message') && idle(s), 30_000);
    w.model.push({ text: 'warm-up reply' });
    w.tmux.type(target, 'warm up', 'Enter');
    await w.until(target, (s) => s.includes('warm-up reply') && idle(s), 30_000);
    targets.set(name, target);
  }
  let n = 0;
  for (let round = 0; round < runs; round++) {
    const order = round % 2 ? [...builds.keys()] : [...builds.keys()].reverse();
    if (round > 0 && round % NEW_SESSION_EVERY === 0) {
      // a new session before the context fills (a compression would take the model's next reply)
      for (const target of targets.values()) {
        w.tmux.type(target, '/new', 'Enter');
        await w.until(target, (s) => s.includes('New session') && idle(s), 30_000);
      }
    }
    for (const name of order) {
      const target = targets.get(name)!;
      const pid = w.tmux.pid(target);
      const last = `ABEND${n++}X`;
      w.model.push({
        text: replyOf(STREAM.tokens, last),
        chunkSize: STREAM.chunkSize,
        delayMs: STREAM.delayMs,
      });
      const req = w.model.requests.length;
      const c0 = cpuMs(pid);
      w.tmux.type(target, `reply ${n}`, 'Enter');
      const seen = await w.until(target, (s) => s.includes(last), 60_000, 2);
      const seenAt = Date.now() - (performance.now() - seen);
      await w.until(target, idle, 30_000);
      const finished = w.model.requests[req]?.finishedAt;
      if (!finished) throw new Error('the model server did not record the end of the stream');
      cpu.get(name)!.push(cpuMs(pid) - c0);
      lastByte.get(name)!.push(seenAt - finished);
    }
  }
  await new Promise((r) => setTimeout(r, 3_000)); // the collection a second after idle (idle-memory.ts)
  for (const [name, target] of targets) rss.set(name, Math.round(rssMb(w.tmux.pid(target)) * 10) / 10);
} finally {
  await w.close();
}
for (const name of builds.keys()) {
  const c = cpu.get(name)!;
  const l = lastByte.get(name)!;
  console.log(
    `${name}  rss ${rss.get(name)} MB  cpu ${median(c)} ms/reply  last byte → last word ${median(l).toFixed(1)} ms  cpu ${JSON.stringify(c)}  last ${JSON.stringify(l.map((v) => Math.round(v)))}`,
  );
}
