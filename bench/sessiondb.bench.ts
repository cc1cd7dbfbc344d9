/**
 * SessionDB benchmarks: appends per second in one process and in four
 * processes writing one state.db at once, and FTS query time over 100,000 messages.
 * Goals on the 2-core machine: ≥ 5,000 appends/s in one process, FTS p50 ≤ 20 ms.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SessionDB } from '../core/src/state/session-db.js';
import type { Benchmark } from './lib/types.js';
import { Corpus } from './sessiondb/corpus.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORKER = join(ROOT, 'bench/sessiondb/worker.ts');

/** Appends per sample in one process; per worker in the 4-process run. */
const APPENDS = 2_000;
/** Messages in the search corpus. */
const CORPUS_MESSAGES = 100_000;

function tempDb(): { file: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-sessiondb-'));
  return { file: join(dir, 'state.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One process: `APPENDS` appendMessage calls (one transaction each) into a fresh database. */
async function appendsOneProcess(): Promise<number[]> {
  const corpus = new Corpus(1);
  const messages = Array.from({ length: APPENDS }, (_, i) => corpus.message(i));
  const samples: number[] = [];
  for (let run = 0; run < 8; run++) {
    const { file, cleanup } = tempDb();
    const db = SessionDB.open(file);
    try {
      const sid = db.createSession({ source: 'bench' }).id;
      const t0 = performance.now();
      for (const m of messages) db.appendMessage(sid, m);
      const s = (performance.now() - t0) / 1000;
      if (run > 0) samples.push(APPENDS / s); // run 0 warms up the JIT and the file system
    } finally {
      db.close();
      cleanup();
    }
  }
  return samples;
}

/** Starts a worker and resolves when it is ready; `go()` starts it, `done` resolves at its report. */
function startWorker(file: string, sid: string, seed: number) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', WORKER, file, sid, String(APPENDS), String(seed)],
    {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const r = await lines.next();
    if (r.done) throw new Error(`bench worker ${seed} exited early`);
    return r.value;
  };
  return {
    ready: next(),
    go: () => child.stdin!.write('go\n'),
    done: () => next().then((l) => JSON.parse(l) as { appended: number; failed: number; ms: number }),
  };
}

/** Four processes, `APPENDS` each, all started together; total appends / wall time from "go". */
async function appendsFourProcesses(): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < 4; run++) {
    const { file, cleanup } = tempDb();
    try {
      const setup = SessionDB.open(file);
      const sid = setup.createSession({ source: 'bench' }).id;
      setup.close();
      const workers = [1, 2, 3, 4].map((seed) => startWorker(file, sid, seed));
      await Promise.all(workers.map((w) => w.ready));
      const t0 = performance.now();
      for (const w of workers) w.go();
      const reports = await Promise.all(workers.map((w) => w.done()));
      const s = (performance.now() - t0) / 1000;
      const failed = reports.reduce((n, r) => n + r.failed, 0);
      if (failed) throw new Error(`${failed} appends failed in the 4-process benchmark`);
      if (run > 0) samples.push((4 * APPENDS) / s);
    } finally {
      cleanup();
    }
  }
  return samples;
}

/** Fills `db` with the 100,000-message corpus: 200 sessions of 500 messages, one transaction each. */
function buildSearchCorpus(db: SessionDB, corpus: Corpus): void {
  for (let s = 0; s < CORPUS_MESSAGES / 500; s++) {
    const sid = db.createSession({ source: 'bench', title: `session ${s}` }).id;
    db.appendMessages(
      sid,
      Array.from({ length: 500 }, (_, i) => corpus.message(i)),
    );
  }
}

/**
 * What users type: common, mid-frequency and rare words, two-word queries, a phrase, hyphenated
 * model names, a prefix, an OR, and input with stray syntax.
 */
function queryMix(c: Corpus): string[] {
  const v = c.vocab;
  return [
    v[0]!,
    v[1]!,
    v[3]!,
    v[10]!,
    v[30]!,
    v[100]!,
    v[300]!,
    v[1000]!,
    v[3000]!,
    v[8000]!,
    v[15000]!,
    v[19000]!,
    `${v[2]} ${v[40]}`,
    `${v[5]} ${v[200]}`,
    `${v[60]} ${v[600]}`,
    `"${v[0]} ${v[1]}"`,
    `${v[7]} AND`,
    'gpt-4o',
    'gpt-4o-mini',
    'claude-3-5-sonnet',
    'session-db.ts',
    `${v[20]!.slice(0, 3)}*`,
    `${v[50]} OR ${v[500]}`,
    `(${v[4]}`,
    `${v[9]} "${v[90]}`,
    `OR ${v[150]} ${v[1500]}`,
    'npm run build',
    `${v[25]} ${v[250]} ${v[2500]}`,
    v[12]!,
    v[120]!,
  ];
}

/** FTS query time over 100,000 messages: one sample per query of the mix, in ms. */
async function ftsQueryTimes(): Promise<number[]> {
  const { file, cleanup } = tempDb();
  const corpus = new Corpus(7);
  const db = SessionDB.open(file);
  try {
    buildSearchCorpus(db, corpus);
    const queries = queryMix(corpus);
    for (const q of queries) db.search(q); // warm the page cache and statement cache
    const samples: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const q of queries) {
        const t0 = performance.now();
        db.search(q, { limit: 20 });
        samples.push(performance.now() - t0);
      }
    }
    return samples;
  } finally {
    db.close();
    cleanup();
  }
}

/** The SessionDB benchmarks, for bench/run.ts. */
export const benchmarks: Benchmark[] = [
  {
    name: 'sessiondb.append.1proc',
    unit: 'ops/s',
    higherIsBetter: true,
    goal: 5_000,
    run: appendsOneProcess,
  },
  {
    name: 'sessiondb.append.4proc',
    unit: 'ops/s',
    higherIsBetter: true,
    run: appendsFourProcesses,
  },
  {
    name: 'sessiondb.fts.query.100k',
    unit: 'ms',
    goal: 20,
    run: ftsQueryTimes,
  },
];
