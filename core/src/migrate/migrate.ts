/**
 * `hermes migrate`: a home of the Python Hermes (its root and each `profiles/<name>`) into this
 * hermes's root, profile by profile, kind by kind (docs/migrate.md). The source is only read:
 * files are read, its `state.db` is copied and the copy opened (source-db.ts). Each kind of each
 * profile succeeds or fails on its own; a failure names its file and the run can be repeated —
 * what came is recognised and not brought twice.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resolveTimeZone } from '../cron/timezone.js';
import { HermesHome } from '../home/home.js';
import { DEFAULT_PROFILE, validateNewProfileName } from '../home/profile-name.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { planConfig } from './config-map.js';
import { importCronJobs } from './cron-import.js';
import { planEnv } from './env-merge.js';
import { MigrateError } from './errors.js';
import { copyFileIfAbsent, folderExists, importSkills } from './home-files.js';
import { importSessions } from './import-sessions.js';
import { migrateInPlace } from './in-place.js';
import { stateDbKind } from './python-home.js';
import { SourceDb } from './source-db.js';
import type { MigrateReport, ProfileReport, Skipped } from './types.js';

/** Options of `migratePythonHome`. */
export interface MigrateOptions {
  /** The original's home (its root, `~/.hermes` by default). */
  from: string;
  /** This hermes's root. */
  root: string;
  /** Only report what would come; change nothing. */
  dryRun?: boolean;
  /** Only this profile of the original (`default` = its root), into ours of the same name. */
  profile?: string;
  /** Clock, epoch ms. */
  now?: () => number;
}

/** Internal: migrating into a staging folder inside the source (in-place.ts). */
interface InternalOptions extends MigrateOptions {
  intoStaging?: boolean;
}

const HOME_MARKS = ['state.db', 'config.yaml', '.env', 'SOUL.md', 'memories', 'skills', 'cron'];

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

function read(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

async function step(report: ProfileReport, file: string, fn: () => Promise<void> | void): Promise<void> {
  try {
    await fn();
  } catch (err) {
    const reason = err instanceof MigrateError ? err.reason : (err as Error).message;
    report.errors.push({ item: err instanceof MigrateError ? err.file : file, reason });
  }
}

/** Migrates one profile of the original (`from`) into `home`. */
export async function migrateProfile(
  name: string,
  from: string,
  home: HermesHome,
  opts: { dryRun: boolean; now: number },
): Promise<ProfileReport> {
  const { dryRun, now } = opts;
  const report: ProfileReport = { name, from, to: home.dir, files: [], errors: [], warnings: [] };
  if (!dryRun) home.ensure();
  const src = (...p: string[]): string => join(from, ...p);
  await step(report, src('config.yaml'), () => {
    const text = read(src('config.yaml'));
    if (text === undefined) return;
    const cli = name === DEFAULT_PROFILE ? 'hermes' : `hermes -p ${name}`;
    const plan = planConfig(text, src('config.yaml'), read(home.configFile), cli);
    report.config = plan.result;
    if (!dryRun && plan.text !== undefined) writeFileAtomic(home.configFile, plan.text, 0o600);
  });
  await step(report, src('.env'), () => {
    const text = read(src('.env'));
    if (text === undefined) return;
    const plan = planEnv(text, read(home.envFile));
    report.env = plan.result;
    if (!dryRun && plan.text !== undefined) writeFileAtomic(home.envFile, plan.text, 0o600);
  });
  for (const [label, source, target] of [
    ['SOUL.md', src('SOUL.md'), home.soulFile],
    ['memories/MEMORY.md', src('memories', 'MEMORY.md'), home.memoryFile],
    ['memories/USER.md', src('memories', 'USER.md'), home.userFile],
  ] as const)
    await step(report, source, () => void report.files.push(copyFileIfAbsent(label, source, target, dryRun)));
  await step(report, src('skills'), () => {
    if (folderExists(src('skills'))) report.skills = importSkills(src('skills'), home.skillsDir, dryRun);
  });
  await step(report, src('cron', 'jobs.json'), async () => {
    if (!existsSync(src('cron', 'jobs.json'))) return;
    report.cron = await importCronJobs(src('cron', 'jobs.json'), home, {
      dryRun,
      now,
      timeZone: resolveTimeZone(''),
    });
  });
  await step(report, src('state.db'), () => {
    if (!existsSync(src('state.db'))) return;
    const db = SourceDb.open(src('state.db'));
    try {
      report.warnings.push(...db.warnings);
      report.sessions = importSessions(db, home.stateDbFile, dryRun);
    } finally {
      db.close();
    }
  });
  return report;
}

/** The original's profiles: `default` (its root) and each folder of `profiles/`. */
function sourceProfiles(from: string): string[] {
  const dir = join(from, 'profiles');
  const named = folderExists(dir)
    ? readdirSync(dir)
        .filter((n) => folderExists(join(dir, n)))
        .sort()
    : [];
  return [DEFAULT_PROFILE, ...named];
}

/**
 * Runs the migration (or with `dryRun` the report of what it would do).
 * @throws MigrateError when `from` is not a home of the Python Hermes, is this hermes's own root,
 *   or lacks the profile asked for. Errors of single files are in the report (`errors`).
 */
export async function migratePythonHome(opts: MigrateOptions): Promise<MigrateReport> {
  const from = resolve(opts.from);
  const root = resolve(opts.root);
  const dryRun = opts.dryRun === true;
  const now = (opts.now ?? Date.now)();
  if (!folderExists(from)) throw new MigrateError(from, 'no such folder');
  if (real(from) === real(root) && !(opts as InternalOptions).intoStaging) {
    if (stateDbKind(join(root, 'state.db')) !== 'python-hermes')
      throw new MigrateError(
        from,
        "this is this hermes's own root, not a home of the Python Hermes; name the original's home with --from DIR",
      );
    if (opts.profile !== undefined)
      throw new MigrateError(
        from,
        "migrating this hermes's own root moves every profile at once; leave out -p/--profile",
      );
    return migrateInPlace(root, { dryRun, now }, (staging) =>
      migratePythonHome({ ...opts, root: staging, now: () => now, intoStaging: true } as InternalOptions),
    );
  }
  if (real(from).startsWith(`${real(join(root, 'profiles'))}/`))
    throw new MigrateError(from, `it is a profile folder of this hermes's own root (${root})`);
  if (!HOME_MARKS.some((m) => existsSync(join(from, m))))
    throw new MigrateError(
      from,
      'no home of the Python Hermes here (none of state.db, config.yaml, .env, SOUL.md, memories, skills, cron)',
    );
  const report: MigrateReport = { from, to: root, dryRun, profiles: [], skippedProfiles: [] };
  let names = sourceProfiles(from);
  if (opts.profile !== undefined) {
    if (!names.includes(opts.profile))
      throw new MigrateError(join(from, 'profiles', opts.profile), 'no such profile of the Python Hermes');
    names = [opts.profile];
  }
  for (const name of names) {
    if (name !== DEFAULT_PROFILE) {
      try {
        validateNewProfileName(name);
      } catch (err) {
        report.skippedProfiles.push({ item: name, reason: (err as Error).message } satisfies Skipped);
        continue;
      }
    }
    const dir = name === DEFAULT_PROFILE ? from : join(from, 'profiles', name);
    report.profiles.push(await migrateProfile(name, dir, new HermesHome(root, name), { dryRun, now }));
  }
  return report;
}
