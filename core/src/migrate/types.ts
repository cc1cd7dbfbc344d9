/** The report of `hermes migrate`: what came, what did not, and why, per profile and kind. */

/** One thing left out, with the reason. */
export interface Skipped {
  /** What: a key, a file, a skill, a job, a session. */
  item: string;
  reason: string;
}

/** config.yaml. */
export interface ConfigResult {
  /** `absent` (no source file), `written`, `unchanged` (everything already there). */
  status: 'absent' | 'written' | 'unchanged';
  /** Dotted keys brought (leaves). */
  keys: string[];
  /** Renames applied (`model → model.default`). */
  renamed: string[];
  /** Keys this hermes does not use: kept in the file, reported. */
  unknown: string[];
  /** Keys whose value is invalid here: left out (the source keeps them). */
  invalid: Skipped[];
  /** Keys already set in this home with another value: ours kept. */
  conflicts: string[];
  /** Settings that would loosen the guards: left out or disabled, with how to switch them on. */
  guarded: Skipped[];
}

/** `.env`. Only key names, never values. */
export interface EnvResult {
  status: 'absent' | 'written' | 'unchanged';
  added: string[];
  /** Keys this home already has with another value: ours kept. */
  conflicts: string[];
  skipped: Skipped[];
}

/** One plain file (SOUL.md, MEMORY.md, USER.md). */
export interface FileResult {
  name: string;
  /** `copied`, `same` (already identical), `kept-ours` (ours differs: not overwritten), `absent`. */
  status: 'copied' | 'same' | 'kept-ours' | 'absent';
}

/** Skills. */
export interface SkillsResult {
  copied: string[];
  same: string[];
  skipped: Skipped[];
}

/** One cron job as it arrives (always paused). */
export interface CronJobLine {
  id: string;
  name: string;
  schedule: string;
}

/** Cron jobs. */
export interface CronResult {
  jobs: CronJobLine[];
  alreadyMigrated: number;
  skipped: Skipped[];
}

/** Session history. */
export interface SessionsResult {
  sessions: number;
  messages: number;
  /** Sessions a previous run brought (recorded in `migrated_sessions`). */
  alreadyMigrated: number;
  skipped: Skipped[];
  /** Messages left out: reason → count. */
  skippedMessages: Record<string, number>;
}

/** One profile of the original and where it went. */
export interface ProfileReport {
  name: string;
  from: string;
  to: string;
  config?: ConfigResult;
  env?: EnvResult;
  files: FileResult[];
  skills?: SkillsResult;
  cron?: CronResult;
  sessions?: SessionsResult;
  /** Files that could not be read or written: file and reason (the rest of the profile still came). */
  errors: Skipped[];
  warnings: string[];
}

/** The whole run. */
export interface MigrateReport {
  from: string;
  to: string;
  dryRun: boolean;
  profiles: ProfileReport[];
  /** Profiles of the original not brought (invalid names here …). */
  skippedProfiles: Skipped[];
  /**
   * Set when the original was this hermes's own root (in place): the folder its files were moved
   * to, unchanged, after the migrated copy was verified (in a dry run: where they would go).
   */
  backup?: string;
}
