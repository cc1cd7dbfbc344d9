/**
 * Which session `hermes tui -c` (also bare `hermes`) and `hermes chat -c` resume (user-trial
 * finding 2): the interactive (cli/tui) session with the latest activity, preferring one whose
 * folder is the current one (`SessionDB.continueSession`). Read from the profile's `state.db`
 * with a read-only connection, so it works the same with or without the daemon.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { HermesHome } from '@hermes/core/home/home';
import type { SessionRecord } from '@hermes/core/state/types';

/**
 * The session to continue; null when the profile has no interactive session (or no database yet);
 * undefined when the database cannot be read (callers then fall back to their old rule).
 */
export async function findContinueSession(
  home: HermesHome,
  cwd: string,
): Promise<SessionRecord | null | undefined> {
  if (!existsSync(home.stateDbFile)) return null;
  const { SessionDB } = await import('@hermes/core/state/session-db');
  let db: ReturnType<typeof SessionDB.open> | undefined;
  try {
    db = SessionDB.open(home.stateDbFile, { readonly: true });
    return db.continueSession({ cwd: resolve(cwd) }) ?? null;
  } catch {
    return undefined; // the caller falls back; the daemon reports a broken database itself
  } finally {
    db?.close();
  }
}

/**
 * One line saying that the continued session works in another folder than `cwd` (its tools run
 * there), with how to start one here instead; undefined when the folders match.
 */
export function continueElsewhereNote(
  session: SessionRecord,
  cwd: string,
  newCommand: string,
): string | undefined {
  if (!session.cwd || session.cwd === resolve(cwd)) return undefined;
  const name = session.title ? `"${session.title}" (${session.id})` : session.id;
  return `Continuing ${name}, whose folder is ${session.cwd} (no session of this folder); "${newCommand}" starts one here.`;
}
