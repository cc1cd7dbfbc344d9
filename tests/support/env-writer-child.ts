/**
 * A separate process setting variables in a home's `.env` (the concurrency test of the writer):
 * `node --import tsx tests/support/env-writer-child.ts <home> <prefix> <count>` sets
 * `<prefix>_0` … `<prefix>_<count-1>`, one `setSecret` call each, then exits.
 */
import { HermesHome } from '../../core/src/home/home.js';
import { setSecret } from '../../core/src/config/secrets.js';

const [home, prefix, count] = process.argv.slice(2);
const h = new HermesHome(home!);
for (let i = 0; i < Number(count); i++) setSecret(h, `${prefix}_${i}`, `value ${prefix} ${i}`);
