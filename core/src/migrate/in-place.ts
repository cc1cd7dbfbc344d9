/**
 * Migrating a home of the Python Hermes that is this hermes's own root (both default to
 * `~/.hermes`). Nothing of the original is rewritten:
 * 1. everything is migrated into a staging folder inside the root (`.migrate-staging-<time>`),
 *    the original only read, as for any other source;
 * 2. the staging copy is verified (each profile's config loads, its SessionDB opens and holds the
 *    sessions and messages the report counts);
 * 3. only then are the original's entries moved, unchanged (a rename each), into
 *    `python-hermes-backup-<time>/` in the root — all but `hermes-agent/`, the original's program
 *    folder — and the staged ones moved into the root.
 * A failure before step 3 removes the staging folder and changes nothing; a failed move in step 3
 * moves back what it had moved. The Python Hermes keeps working from the backup with
 * `HERMES_HOME=<root>/python-hermes-backup-<time>`.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config/config-file.js';
import { HermesHome } from '../home/home.js';
import { SessionDB } from '../state/session-db.js';
import { MigrateError } from './errors.js';
import type { MigrateReport } from './types.js';

/** The original's program folder (its installer clones into `~/.hermes/hermes-agent`): left in place. */
export const PROGRAM_FOLDER = 'hermes-agent';

/** `YYYYMMDD-HHMMSS` in UTC, for the backup and staging folder names. */
export function stamp(now: number): string {
  return new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * The state.db files of the original whose `-wal` holds writes: a sign it is running.
 * @returns their paths (empty when none).
 */
export function busyDatabases(root: string): string[] {
  const dirs = [root];
  const profiles = join(root, 'profiles');
  if (existsSync(profiles)) for (const n of readdirSync(profiles)) dirs.push(join(profiles, n));
  return dirs
    .map((d) => join(d, 'state.db-wal'))
    .filter((wal) => {
      try {
        return statSync(wal).size > 0;
      } catch {
        return false;
      }
    });
}

/**
 * Checks the staged homes against the report.
 * @throws MigrateError naming what does not match.
 */
export function verifyStaging(report: MigrateReport, staging: string): void {
  for (const p of report.profiles) {
    const home = new HermesHome(staging, p.name);
    try {
      loadConfig(home);
    } catch (err) {
      throw new MigrateError(home.configFile, `the migrated config does not load: ${(err as Error).message}`);
    }
    if (!p.sessions) continue;
    const db = SessionDB.open(home.stateDbFile, { readonly: true });
    try {
      const sessions = db.listSessions({ limit: 10_000 }).length;
      const messages = db.countMessages();
      if (sessions !== p.sessions.sessions || messages !== p.sessions.messages)
        throw new MigrateError(
          home.stateDbFile,
          `the copy holds ${sessions} sessions and ${messages} messages, the source ${p.sessions.sessions} and ${p.sessions.messages}`,
        );
    } finally {
      db.close();
    }
  }
}

/**
 * Moves the original's entries of `root` into `backup` and the staged ones into `root`; on a
 * failure moves back what was moved and rethrows.
 */
export function swapIn(root: string, staging: string, backup: string): void {
  const skip = new Set([PROGRAM_FOLDER, staging.slice(root.length + 1), backup.slice(root.length + 1)]);
  const moved: Array<[string, string]> = [];
  try {
    mkdirSync(backup, { mode: 0o700 });
    for (const name of readdirSync(root)) {
      if (skip.has(name)) continue;
      renameSync(join(root, name), join(backup, name));
      moved.push([join(root, name), join(backup, name)]);
    }
    for (const name of readdirSync(staging)) {
      renameSync(join(staging, name), join(root, name));
      moved.push([join(staging, name), join(root, name)]);
    }
  } catch (err) {
    for (const [from, to] of moved.reverse()) {
      try {
        renameSync(to, from);
      } catch {
        /* reported below with the original error */
      }
    }
    throw new MigrateError(root, `moving the files failed and was undone: ${(err as Error).message}`, {
      cause: err,
    });
  }
  rmSync(staging, { recursive: true, force: true });
}

/**
 * Runs the in-place migration of `root`.
 * @param migrate migrates a source into a target root (migrate.ts, without the own-root check).
 * @throws MigrateError when the original seems to be running, a file could not be migrated
 *   (nothing is changed then), the staged copy does not verify, or moving fails (undone).
 */
export async function migrateInPlace(
  root: string,
  opts: { dryRun: boolean; now: number },
  migrate: (target: string) => Promise<MigrateReport>,
): Promise<MigrateReport> {
  const busy = busyDatabases(root);
  if (busy.length > 0 && !opts.dryRun)
    throw new MigrateError(
      busy[0]!,
      'holds unsaved writes: the Python Hermes seems to be running; stop it and run hermes migrate again',
    );
  const ts = stamp(opts.now);
  const staging = join(root, `.migrate-staging-${ts}`);
  const backup = join(root, `python-hermes-backup-${ts}`);
  if (existsSync(staging) || existsSync(backup))
    throw new MigrateError(backup, 'already exists; run again in a second');
  let report: MigrateReport;
  try {
    report = await migrate(staging);
    const errors = report.profiles.flatMap((p) => p.errors);
    if (errors.length > 0 && !opts.dryRun)
      throw new MigrateError(errors[0]!.item, `${errors[0]!.reason} (nothing was changed in ${root})`);
    if (!opts.dryRun) verifyStaging(report, staging);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  if (!opts.dryRun) swapIn(root, staging, backup);
  const to = (p: string): string => (p.startsWith(staging) ? root + p.slice(staging.length) : p);
  return {
    ...report,
    to: root,
    backup,
    profiles: report.profiles.map((p) => ({ ...p, to: to(p.to) })),
  };
}
