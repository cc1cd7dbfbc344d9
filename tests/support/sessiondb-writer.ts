/**
 * Child process for tests/sessiondb-concurrency.test.ts: appends messages to one session of a
 * shared state.db as fast as it can. Run as
 * `node --import tsx tests/support/sessiondb-writer.ts <file> <sessionId> <count> <label>`.
 *
 * Protocol (one line each on stdout): `ready` once the database is open; then it waits for a line
 * `go` on stdin (so all writers start together), appends, and prints one JSON line
 * `{"label", "appended", "failed", "errors", "ms"}` before exiting 0 (1 when any append failed).
 */
import { createInterface } from 'node:readline';
import { SessionDB } from '../../core/src/state/session-db.js';

const [file, sessionId, countArg, label] = process.argv.slice(2);
if (!file || !sessionId || !countArg || !label) {
  process.stderr.write('usage: sessiondb-writer.ts <file> <sessionId> <count> <label>\n');
  process.exit(2);
}
const count = Number(countArg);
const db = SessionDB.open(file, { warn: (m) => process.stderr.write(`${m}\n`) });
process.stdout.write('ready\n');

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== 'go') continue;
  lines.close();
  const errors: string[] = [];
  let appended = 0;
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    try {
      db.appendMessage(sessionId, {
        role: i % 2 ? 'assistant' : 'user',
        content: `writer ${label} message ${i} token ${label}m${i}`,
      });
      appended++;
    } catch (err) {
      if (errors.length < 5) errors.push((err as Error).message);
    }
  }
  const ms = performance.now() - t0;
  db.close();
  process.stdout.write(`${JSON.stringify({ label, appended, failed: count - appended, errors, ms })}\n`);
  process.exitCode = appended === count ? 0 : 1;
  break;
}
