/**
 * Four processes appending 2,000 messages each to one state.db at the same
 * time — all 8,000 present, none failed (WAL, BEGIN IMMEDIATE, jittered retries).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionDB } from '../core/src/state/session-db.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WRITER = join(ROOT, 'tests/support/sessiondb-writer.ts');
const WRITERS = 4;
const PER_WRITER = 2_000;

interface WriterReport {
  label: string;
  appended: number;
  failed: number;
  errors: string[];
  ms: number;
}

/** A writer child with a promise for each protocol line it prints. */
function startWriter(file: string, sessionId: string, label: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', WRITER, file, sessionId, String(PER_WRITER), label],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const nextLine = async (what: string, deadlineMs: number): Promise<string> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, rej) => {
      timer = setTimeout(
        () => rej(new Error(`writer ${label}: no ${what} within ${deadlineMs} ms; stderr: ${stderr}`)),
        deadlineMs,
      );
    });
    try {
      const r = await Promise.race([lines.next(), timeout]);
      if (r.done) throw new Error(`writer ${label} exited before ${what}; stderr: ${stderr}`);
      return r.value;
    } finally {
      clearTimeout(timer);
    }
  };
  return { child, exited, nextLine, stderr: () => stderr };
}

let dir: string | undefined;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('SessionDB across processes', () => {
  it(`${WRITERS} processes × ${PER_WRITER} appends to one state.db: all present, none failed`, async () => {
    dir = mkdtempSync(join(tmpdir(), 'hermes-concurrency-'));
    const file = join(dir, 'state.db');
    const setup = SessionDB.open(file);
    const session = setup.createSession({ source: 'cli', title: 'concurrency' });
    setup.close();

    const writers = Array.from({ length: WRITERS }, (_, i) => startWriter(file, session.id, `w${i}`));
    children.push(...writers.map((w) => w.child));
    // Barrier: every writer has the database open before any starts writing.
    for (const w of writers) expect(await w.nextLine('ready', 20_000)).toBe('ready');
    for (const w of writers) w.child.stdin!.write('go\n');
    const reports = await Promise.all(
      writers.map(async (w) => JSON.parse(await w.nextLine('report', 25_000)) as WriterReport),
    );
    const codes = await Promise.all(writers.map((w) => w.exited));

    expect(reports.map((r) => r.errors).flat()).toEqual([]);
    expect(reports.map((r) => r.failed)).toEqual([0, 0, 0, 0]);
    expect(codes).toEqual([0, 0, 0, 0]);

    const db = SessionDB.open(file, { readonly: true });
    try {
      expect(db.countMessages(session.id)).toBe(WRITERS * PER_WRITER);
      expect(db.getSession(session.id)?.message_count).toBe(WRITERS * PER_WRITER);
      const messages = db.getMessages(session.id);
      const contents = new Set(messages.map((m) => m.content));
      expect(contents.size).toBe(WRITERS * PER_WRITER);
      // Each writer's messages are stored in the order it wrote them.
      for (let w = 0; w < WRITERS; w++) {
        const mine = messages.filter((m) => m.content!.startsWith(`writer w${w} `));
        expect(mine).toHaveLength(PER_WRITER);
        expect(mine.map((m) => Number(/message (\d+)/.exec(m.content!)![1]))).toEqual(
          Array.from({ length: PER_WRITER }, (_, i) => i),
        );
      }
      // The writes interleaved (they really ran at the same time) and the index saw every one.
      const firstWriterOf = (i: number) => messages[i]!.content!.split(' ')[1];
      const switches = messages.filter((_, i) => i > 0 && firstWriterOf(i) !== firstWriterOf(i - 1)).length;
      expect(switches).toBeGreaterThan(WRITERS);
      expect(db.search('w3m1999').map((h) => h.session_id)).toEqual([session.id]);
      expect(db.search('w0m0')).toHaveLength(1);
    } finally {
      db.close();
    }
  }, 45_000);
});
