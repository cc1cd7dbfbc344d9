/**
 * Child process for tests/checkpoint-lock-crash.test.ts: takes a home's checkpoint store lock the
 * way a checkpoint does and keeps it, like a process stopped mid-snapshot. Run as
 * `node --import tsx tests/support/checkpoint-lock-holder.ts <checkpointsDir>`; prints `locked`
 * once it holds the lock, then waits until killed.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { acquireStoreLock } from '../../core/src/checkpoints/store-lock.js';

const [base] = process.argv.slice(2);
if (!base) {
  process.stderr.write('usage: checkpoint-lock-holder.ts <checkpointsDir>\n');
  process.exit(2);
}
mkdirSync(base, { recursive: true });
await acquireStoreLock(base, join(base, 'store.lock'));
process.stdout.write('locked\n');
setInterval(() => undefined, 60_000);
