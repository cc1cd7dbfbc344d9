/**
 * Launch times of two (or more) builds of `hermes tui`, interleaved in one run on one daemon, so
 * a shared, noisy machine loads them alike (tui-cost.bench.ts / tui.bench.ts measure one build
 * against a saved baseline). Each round launches every build once, in alternating order; the
 * first round warms the file cache and writes each build's code cache, and is not counted.
 *
 *   node --conditions=@hermes/source --import tsx bench/tui/launch-ab.ts \
 *     base=/path/to/main/bin/hermes new=bin/hermes
 *
 * `MODE` (environment): `ready` (default; `tui.launch.app_ready`: until `/` typed as soon as the
 * composer shows opens the command popup), `cold` (`tui.launch.cold_echo`: the daemon stopped
 * before each launch, until a key typed at once is on screen), `composer` (`tui.launch.composer`:
 * until the composer is on screen, a 20-message session to continue), `rss` (the TUI's VmRSS in
 * MB, 3 s after it is attached and idle). `RUNS` (default 10): counted rounds.
 * Prints each build's median and samples (ms, or MB for `rss`).
 */
import { runHermes } from '../../tests/support/hermes-cli.js';
import { median } from '../lib/stats.js';
import { buildsFromArgs, rssMb, seedSession, world } from './terminal.js';

const builds = buildsFromArgs('launch-ab.ts');
const mode = process.env.MODE ?? 'ready';
if (!['ready', 'cold', 'composer', 'rss'].includes(mode)) throw new Error(`unknown MODE ${mode}`);
const runs = Number(process.env.RUNS ?? 10);

const composerShown = (s: string): boolean => s.includes('Type a message') || s.includes('│ › ');
const idle = (s: string): boolean => s.includes('◇ idle') && s.includes('● connected');

const w = await world(mode === 'composer' ? (root) => void seedSession(root, 'launch', 20) : undefined);
const env = { HERMES_HOME: w.root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1' };
const samples = new Map([...builds.keys()].map((k) => [k, [] as number[]]));
try {
  let n = 0;
  for (let round = 0; round <= runs; round++) {
    const order = round % 2 ? [...builds.keys()] : [...builds.keys()].reverse();
    for (const name of order) {
      if (mode === 'cold') {
        const stopped = await runHermes(w.root, ['gateway', 'stop']);
        if (stopped.code !== 0) throw new Error(`hermes gateway stop failed: ${stopped.stderr}`);
      }
      const t0 = performance.now();
      const target = w.tmux.open(`ab${n++}`, [process.execPath, builds.get(name)!, 'tui'], env);
      let value: number;
      if (mode === 'rss') {
        await w.until(target, idle, 30_000);
        await new Promise((r) => setTimeout(r, 3_000));
        value = rssMb(w.tmux.pid(target));
      } else if (mode === 'composer') {
        value = (await w.until(target, (s) => s.includes('Type a message'), 20_000)) - t0;
      } else {
        await w.until(target, composerShown, 30_000, 2);
        w.tmux.type(target, mode === 'cold' ? 'x' : '/');
        const shown =
          mode === 'cold' ? (s: string) => s.includes('│ › x') : (s: string) => s.includes('/help');
        value = (await w.until(target, shown, 30_000, 2)) - t0;
      }
      await w.until(target, idle, 30_000);
      w.tmux.run('kill-window', '-t', target);
      if (round > 0) samples.get(name)!.push(Math.round(value * 10) / 10);
    }
  }
} finally {
  await w.close();
}
for (const [name, values] of samples)
  console.log(`${name}  median ${Math.round(median(values) * 10) / 10}  ${JSON.stringify(values)}`);
