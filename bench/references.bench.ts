/**
 * `@` completion in a generated tree of 100,000 files (1,000 folders of 100; plus 10,000 files in
 * a `.gitignore`d folder and 5,000 in `node_modules`, which must not be listed). The composer
 * never waits on any of this (its keys are echoed before an answer: ui-tui/src/refs tests); these
 * numbers say how soon the popup fills.
 *
 * - `references.first_result`: a new index (first `@` in a folder) until an answer holds a match
 *   for `app`, polling `complete` as the TUI does (rg when installed).
 * - `references.index_ready`: a new index until the listing is complete (rg when installed).
 * - `references.index_ready.js`: the same with the JavaScript walker (machines without rg or git).
 * - `references.complete`: one `complete` call on the ready index, over a mix of queries.
 * - `references.tui.echo` / `references.tui.popup`: in `hermes tui` (tmux, 120×40) started in the
 *   tree, `@` and a name typed into an empty composer until the text is on screen, and until the
 *   popup shows a match; the first sample of each is the first `@` of a fresh daemon (its
 *   listing not built yet).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileIndex } from '@hermes/core/references';
import { HERMES_BIN } from '../tests/support/hermes-cli.js';
import { shq } from '../tests/support/tmux.js';
import type { Benchmark } from './lib/types.js';
import { world } from './tui/terminal.js';

const QUERIES = ['app', 'src/m12', 'cmpp', 'index', 'f99', 'pkg417/file', 'readme', 'zzzz'];

let tree: string | undefined;
/** Builds the tree once per run (about 115,000 files). */
function buildTree(): string {
  if (tree) return tree;
  const root = mkdtempSync(join(tmpdir(), 'hermes-bench-refs-'));
  writeFileSync(join(root, '.gitignore'), 'generated/\n*.log\n');
  for (let d = 0; d < 1000; d++) {
    const dir = join(root, 'packages', `pkg${d}`, 'src', d % 7 === 0 ? 'app' : `mod${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `file${f}.ts`), '');
  }
  for (let d = 0; d < 100; d++) {
    const dir = join(root, 'generated', `g${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `out${f}.js`), '');
  }
  for (let d = 0; d < 50; d++) {
    const dir = join(root, 'node_modules', `dep${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `index${f}.js`), '');
  }
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  tree = root;
  return root;
}

async function readyMs(engine?: 'js'): Promise<number> {
  const root = buildTree();
  const index = new FileIndex(engine ? { engine } : {});
  const t0 = performance.now();
  index.complete(root, 'app');
  await index.ready(root);
  const ms = performance.now() - t0;
  const n = index.complete(root, '').ready ? index.files(root).length : -1;
  if (n !== 100_001) throw new Error(`the index holds ${n} files, not 100,001 (with .gitignore)`);
  return ms;
}

export const benchmarks: Benchmark[] = [
  {
    name: 'references.first_result',
    unit: 'ms',
    async run() {
      const root = buildTree();
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        const index = new FileIndex();
        const t0 = performance.now();
        while (index.complete(root, 'app').items.length === 0) await new Promise((r) => setTimeout(r, 1));
        samples.push(performance.now() - t0);
        await index.ready(root);
      }
      return samples;
    },
  },
  {
    name: 'references.index_ready',
    unit: 'ms',
    async run() {
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) samples.push(await readyMs());
      return samples;
    },
  },
  {
    name: 'references.index_ready.js',
    unit: 'ms',
    async run() {
      const samples: number[] = [];
      for (let i = 0; i < 3; i++) samples.push(await readyMs('js'));
      return samples;
    },
  },
  {
    name: 'references.complete',
    unit: 'ms',
    goal: 50,
    async run() {
      const root = buildTree();
      const index = new FileIndex();
      await index.ready(root);
      const samples: number[] = [];
      for (let round = 0; round < 3; round++)
        for (const q of QUERIES) {
          const t0 = performance.now();
          index.complete(root, q, 12);
          samples.push(performance.now() - t0);
        }
      return samples;
    },
  },
  {
    name: 'references.tui.echo',
    unit: 'ms',
    run: async () => (await tuiSamples()).echo,
  },
  {
    name: 'references.tui.popup',
    unit: 'ms',
    run: async () => (await tuiSamples()).popup,
  },
];

let tuiRun: Promise<{ echo: number[]; popup: number[] }> | undefined;
/** One TUI session in the tree, measured once for both benchmarks. */
function tuiSamples(): Promise<{ echo: number[]; popup: number[] }> {
  tuiRun ??= (async () => {
    const root = buildTree();
    const w = await world();
    const echo: number[] = [];
    const popup: number[] = [];
    try {
      const env = { HERMES_HOME: w.root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1' };
      const cmd = `cd ${shq(root)} && exec ${shq(process.execPath)} ${shq(HERMES_BIN)} tui --new`;
      const target = w.tmux.open('refs', ['sh', '-c', cmd], env);
      await w.until(target, (s) => s.includes('Type a message') && s.includes('● connected'), 30_000);
      for (const q of ['pkg12', 'file7', 'app/file3', 'mod999', 'pkg5/src', 'file42', 'pkg77', 'mod3']) {
        const t0 = performance.now();
        w.tmux.type(target, `@${q}`);
        const shown = await w.until(target, (s) => s.includes(`│ › @${q}`), 30_000, 2);
        const listed = await w.until(target, (s) => /❯ 📁|❯ 📄/.test(s), 30_000, 2);
        echo.push(shown - t0);
        popup.push(listed - t0);
        w.tmux.keys(target, 'C-u');
        await w.until(target, (s) => s.includes('Type a message') && !/❯ [📁📄]/u.test(s), 30_000, 2);
      }
    } finally {
      await w.close();
    }
    return { echo, popup };
  })();
  return tuiRun;
}
