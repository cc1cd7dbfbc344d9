/**
 * Start-up recovery: without `<root>/.clean_shutdown`,
 * sessions a crashed daemon left running are marked interrupted in every profile, their partial
 * replies kept. The marker is consumed at start either way.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HermesHome } from '@hermes/core/home';
import { SessionDB } from '@hermes/core/state';
import { listProfileNames } from './profile-runtime.js';
import { takeSessionLock } from './session-lock-takeover.js';

/** What start-up recovery did. */
export interface RecoveryResult {
  /**
   * Per profile, the ids of sessions marked interrupted (empty after a clean shutdown, except for
   * sessions a drain had to interrupt, which it marked itself).
   */
  interrupted: Record<string, string[]>;
  /**
   * Profiles whose state.db could not be opened (damaged): skipped, logged with the recovery
   * steps. The daemon serves the other profiles; these answer ProfileUnavailable.
   */
  unavailable: string[];
}

/** Marks what a crashed daemon left running as interrupted, in every profile that can be opened. */
export function recoverAfterCrash(root: string, log: (line: string) => void = () => {}): RecoveryResult {
  const marker = join(root, '.clean_shutdown');
  const clean = existsSync(marker);
  rmSync(marker, { force: true });
  const out: Record<string, string[]> = {};
  const unavailable: string[] = [];
  for (const name of listProfileNames(root)) {
    const home = new HermesHome(root, name);
    if (!existsSync(home.stateDbFile)) continue;
    let db: SessionDB;
    try {
      db = SessionDB.open(home.stateDbFile);
    } catch (err) {
      // one damaged profile must not stop the daemon for all the others
      unavailable.push(name);
      log(`profile ${name} is unavailable: ${(err as Error).message}`);
      continue;
    }
    try {
      const ids = db.recoverInterrupted((id) => {
        try {
          takeSessionLock(home, id, 'tui-gateway recovery').release();
          return true;
        } catch {
          return false; // another live process (e.g. hermes chat) still writes it
        }
      });
      if (ids.length > 0) {
        out[name] = ids;
        log(
          `${clean ? 'after a clean shutdown' : 'after a crash'}: profile ${name}: marked interrupted: ${ids.join(', ')}`,
        );
      }
    } catch (err) {
      log(`profile ${name}: recovery failed: ${(err as Error).message}`);
    } finally {
      db.close();
    }
  }
  return { interrupted: out, unavailable };
}
