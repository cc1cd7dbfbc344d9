/**
 * The record of background processes (`<root>/run/background-processes.json`, 0600, replaced
 * atomically): one entry per process the daemon started for any profile, running or ended, so a
 * daemon started later (also after `kill -9`) finds the ones still running, and `hermes ps` can
 * list them while no daemon runs.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepDamagedCopy, writeFileAtomic } from '../util/atomic-write.js';
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

/** What `loadBackgroundRecord` found. */
export interface LoadedBackgroundRecord {
  /** The entries that are well formed. */
  entries: BackgroundProcessEntry[];
  /** One sentence per problem (the file unreadable, an entry dropped), each naming the file. */
  problems: string[];
  /** True when the file exists but could not be read as a list: nothing in it was used. */
  unreadable: boolean;
}

const STATES: readonly string[] = ['running', 'exited', 'killed', 'gone'];
const ID = /^bg-[0-9a-f]{8}$/;

/** `v` with its missing optional fields at their defaults (a field that is present is kept). */
function withDefaults(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const defaults = {
    start: null,
    exit_code: null,
    signal: null,
    ended_at: null,
    notify: false,
    dropped: 0,
    adopted: false,
  };
  return { ...defaults, ...(v as Record<string, unknown>) };
}

/** Why `v` is not a usable entry, or undefined when it is. */
function entryProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not an object';
  const e = v as Record<string, unknown>;
  if (typeof e.id !== 'string' || !ID.test(e.id)) return 'its id is not bg- and 8 hex digits';
  if (!Number.isInteger(e.pid) || (e.pid as number) <= 0) return 'its pid is not a positive integer';
  if (e.start !== null && typeof e.start !== 'string') return 'its start is neither a string nor null';
  for (const k of ['profile', 'session', 'command', 'cwd', 'log', 'started_at'] as const)
    if (typeof e[k] !== 'string') return `its ${k} is not a string`;
  if (typeof e.state !== 'string' || !STATES.includes(e.state)) return 'its state is unknown';
  if (e.exit_code !== null && !Number.isInteger(e.exit_code)) return 'its exit_code is not an integer';
  if (e.signal !== null && typeof e.signal !== 'string') return 'its signal is not a string';
  if (e.ended_at !== null && typeof e.ended_at !== 'string') return 'its ended_at is not a string';
  if (typeof e.notify !== 'boolean' || typeof e.adopted !== 'boolean')
    return 'notify/adopted are not booleans';
  if (typeof e.dropped !== 'number' || !Number.isSafeInteger(e.dropped) || e.dropped < 0)
    return 'its dropped is not a byte count';
  return undefined;
}

/**
 * Reads the record under `root`, keeping every well-formed entry and saying what is wrong with
 * the rest (a missing file is no problem).
 */
export function loadBackgroundRecord(root: string): LoadedBackgroundRecord {
  const file = backgroundRecordFile(root);
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { entries: [], problems: [], unreadable: false };
    return { entries: [], problems: [`cannot read ${file}: ${(err as Error).message}`], unreadable: true };
  }
  if (!Array.isArray(v))
    return { entries: [], problems: [`cannot read ${file}: it is not a JSON list`], unreadable: true };
  const entries: BackgroundProcessEntry[] = [];
  const problems: string[] = [];
  v.forEach((raw: unknown, i) => {
    const x = withDefaults(raw);
    const why = entryProblem(x);
    if (why === undefined) entries.push(x as BackgroundProcessEntry);
    else {
      const id =
        typeof (x as { id?: unknown } | null)?.id === 'string' ? ` (${(x as { id: string }).id})` : '';
      problems.push(`${file}: entry ${i}${id} is dropped: ${why}`);
    }
  });
  return { entries, problems, unreadable: false };
}

/** The well-formed entries recorded under `root`; an empty list when the file is missing or unreadable. */
export function readBackgroundRecord(root: string): BackgroundProcessEntry[] {
  return loadBackgroundRecord(root).entries;
}

/**
 * Copies a damaged record aside (`<file>.damaged-<ms>`) before it is replaced, so nothing in it
 * is lost.
 * @returns the copy's path, or undefined when it could not be made.
 */
export function keepDamagedRecord(root: string): string | undefined {
  return keepDamagedCopy(backgroundRecordFile(root));
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
