/**
 * Child process for tests/gateway-db-lock.test.ts: holds a state.db's write lock the way another
 * hermes process in a long write would. Run as
 * `node --import tsx tests/support/sessiondb-locker.ts <file> <holdMs>`: `BEGIN IMMEDIATE`, prints
 * `locked`, keeps the lock `holdMs` ms (its event loop idle), rolls back, prints `released`, exits 0.
 */
import Database from 'better-sqlite3';

const [file, holdArg] = process.argv.slice(2);
if (!file || !holdArg) {
  process.stderr.write('usage: sessiondb-locker.ts <file> <holdMs>\n');
  process.exit(2);
}
const db = new Database(file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
setTimeout(() => {
  db.exec('ROLLBACK');
  db.close();
  process.stdout.write('released\n');
}, Number(holdArg));
