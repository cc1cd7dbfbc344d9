/**
 * The record of background processes (`<root>/run/background-processes.json`, 0600, replaced
 * atomically): one entry per process the daemon started for any profile, running or ended, so a
 * daemon started later (also after `kill -9`) finds the ones still running, and `hermes ps` can
 * list them while no daemon runs.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { groupExists, processStartTime } from '../tools/process-registry.js';

/**
 * Where a background process is: `running`; `exited` (ended by itself: `exit_code` or `signal`
 * says how); `killed` (stopped by `process kill`, `process.kill` or the daemon's stop); `gone`
 * (ended while no daemon watched it, or its pid was reused: how it ended is unknown).
 */
export type BackgroundProcessState = 'running' | 'exited' | 'killed' | 'gone';

/** One recorded background process. */
export interface BackgroundProcessEntry {
  /** `bg-` and 8 hex digits; unique under the root. */
  id: string;
  /** Pid of the process group's leader (the shell, or the sandbox around it). */
  pid: number;
  /** Start time of the leader (field 22 of `/proc/<pid>/stat`); null when unknown (no procfs). */
  start: string | null;
  profile: string;
  /** The session whose tool call started it. */
  session: string;
  /** The command as given (at most 2,000 chars). */
  command: string;
  cwd: string;
  /** Absolute path of its output log (log-file.ts). */
  log: string;
  /** ISO time it started. */
  started_at: string;
  /** The session is told when it ends (`notify_on_complete`). */
  notify: boolean;
  state: BackgroundProcessState;
  exit_code: number | null;
  signal: string | null;
  /** ISO time it ended (or was found ended). */
  ended_at: string | null;
  /** Bytes trimmed from the front of its log (log-file.ts: logical offsets). */
  dropped: number;
  /** True when an earlier daemon started it: its stdin is gone and its exit status will be unknown. */
  adopted: boolean;
}

/** The record file under `root`. */
export function backgroundRecordFile(root: string): string {
  return join(root, 'run', 'background-processes.json');
}

/** The entries recorded under `root`; an empty list when the file is missing or damaged. */
export function readBackgroundRecord(root: string): BackgroundProcessEntry[] {
  try {
    const v: unknown = JSON.parse(readFileSync(backgroundRecordFile(root), 'utf8'));
    return Array.isArray(v)
      ? (v as BackgroundProcessEntry[]).filter(
          (e) => typeof e?.id === 'string' && Number.isInteger(e.pid) && typeof e.profile === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

/**
 * Replaces the record under `root` with `entries`.
 * @throws Error when the root's `run/` folder cannot be written.
 */
export function writeBackgroundRecord(root: string, entries: readonly BackgroundProcessEntry[]): void {
  mkdirSync(join(root, 'run'), { recursive: true, mode: 0o700 });
  writeFileAtomic(backgroundRecordFile(root), `${JSON.stringify(entries, null, 2)}\n`, 0o600);
}

/**
 * Whether the recorded leader still runs: its pid is alive and started at the recorded time (a
 * reused pid does not count; an entry without a start time never counts, as it cannot be told
 * from a reused pid).
 */
export function leaderAlive(e: Pick<BackgroundProcessEntry, 'pid' | 'start'>): boolean {
  if (e.start === null) return false;
  return processStartTime(e.pid) === e.start;
}

/**
 * Whether the recorded process still runs: its leader does (`leaderAlive`), or the leader is gone
 * and its process group still has members (Linux never hands out a pid still used as a group id,
 * so that group is the recorded one).
 */
export function processAlive(e: Pick<BackgroundProcessEntry, 'pid' | 'start'>): boolean {
  return leaderAlive(e) || (processStartTime(e.pid) === null && groupExists(e.pid));
}
