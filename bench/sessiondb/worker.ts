/**
 * Child process of the 4-process append benchmark:
 * `node --import tsx bench/sessiondb/worker.ts <file> <sessionId> <count> <seed>`.
 * Prints `ready` once the database is open, waits for `go` on stdin, appends `count` messages one
 * transaction each, then prints `{"appended", "failed", "ms"}` and exits.
 */
import { createInterface } from 'node:readline';
import { SessionDB } from '../../core/src/state/session-db.js';
import { Corpus } from './corpus.js';

const [file, sessionId, countArg, seedArg] = process.argv.slice(2);
if (!file || !sessionId || !countArg) {
  process.stderr.write('usage: worker.ts <file> <sessionId> <count> [seed]\n');
  process.exit(2);
}
const count = Number(countArg);
const corpus = new Corpus(Number(seedArg ?? 1));
const messages = Array.from({ length: count }, (_, i) => corpus.message(i));
const db = SessionDB.open(file);
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== 'go') continue;
  lines.close();
  let failed = 0;
  const t0 = performance.now();
  for (const m of messages) {
    try {
      db.appendMessage(sessionId, m);
    } catch {
      failed++;
    }
  }
  const ms = performance.now() - t0;
  db.close();
  process.stdout.write(`${JSON.stringify({ appended: count - failed, failed, ms })}\n`);
  break;
}
