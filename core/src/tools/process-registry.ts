/**
 * Tool processes (`terminal`, `execute_code`) and what ends them when their owner (the daemon, or
 * `hermes chat` running in process) does not live to do it.
 *
 * - A tool process is the leader of its own process group (spawned detached), so stopping it
 *   means signalling the group: its children and grandchildren go too.
 * - While it runs it is recorded in `<root>/run/tool-processes.json` (tool-record.ts: pid, its
 *   start time from `/proc/<pid>/stat`, session, profile, command, and the owner's pid and start
 *   time), listed in this process's memory, and told to the owner's watchdog (tool-watchdog.ts),
 *   which ends the group when the owner dies. All three are undone when the process ends.
 * - `stopToolProcesses` (the daemon's clean stop) ends the groups this process still runs:
 *   SIGTERM, then SIGKILL after a grace, and waits until they are gone.
 * - `reapToolProcesses` (daemon start) handles the entries whose owner is gone: a group still
 *   running (its watchdog was killed too) is stopped, SIGTERM then SIGKILL after 2 s; one already
 *   ended (by the watchdog) is reported as ended with its owner. A leader still alive is
 *   signalled only when its start time matches the recorded one (a reused pid is left alone); a
 *   dead leader whose group still exists is the recorded group, since Linux never hands out a pid
 *   still used as a group id. Entries of a live owner (another `hermes chat` process) are kept.
 * - Writers read, change and replace the file synchronously; two processes writing in the same
 *   instant may lose one entry, which only means that process is not reaped after a crash (its
 *   watchdog still ends it). A damaged file is copied aside before it is replaced.
 */
import { readdirSync, readFileSync } from 'node:fs';
import {
  keepDamagedToolRecord,
  loadToolRecord,
  writeToolRecord,
  type ToolProcessEntry,
} from './tool-record.js';
import { unwatchToolGroup, watchToolGroup } from './tool-watchdog.js';

export { toolProcessesFile, type ToolProcessEntry } from './tool-record.js';

/** What a tool process is recorded under. */
export interface ToolProcessTag {
  root: string;
  session: string;
  profile: string;
}

/**
 * The start time of `pid` from `/proc/<pid>/stat`, or null when it is gone, a zombie (exited,
 * not yet waited for) or unknown (no procfs).
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: count from the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return null;
    return fields[19] ?? null; // field 22 overall
  } catch {
    return null;
  }
}

/**
 * Changes the record under `root`. A damaged file is copied aside first (its whole entries are
 * kept); a record that cannot be written is skipped: a tool must run even when the root is not
 * writable.
 */
function update(root: string, change: (entries: ToolProcessEntry[]) => ToolProcessEntry[]): void {
  try {
    const loaded = loadToolRecord(root);
    if (loaded.damaged) keepDamagedToolRecord(root);
    writeToolRecord(root, change(loaded.entries));
  } catch {
    /* best effort (see above) */
  }
}

let ownStart: string | null | undefined;

/** The tool processes this process runs, by leader pid, with the root they are recorded under. */
const live = new Map<number, { root: string; entry: ToolProcessEntry }>();

/**
 * Records tool process `pid` (running `command`) under `tag.root`, lists it in memory and tells
 * the watchdog.
 * @returns a function that undoes all three; call it when the process has ended.
 */
export function recordToolProcess(tag: ToolProcessTag, pid: number, command: string): () => void {
  ownStart ??= processStartTime(process.pid);
  const entry: ToolProcessEntry = {
    pid,
    start: processStartTime(pid),
    session: tag.session,
    profile: tag.profile,
    command: command.length > 500 ? `${command.slice(0, 497)}...` : command,
    owner: process.pid,
    owner_start: ownStart,
  };
  // recorded before the watchdog hears of it: a daemon killed in between leaves the group in the
  // record (the next daemon stops it) rather than ended by the watchdog unrecorded (never reported)
  live.set(pid, { root: tag.root, entry });
  update(tag.root, (entries) => [...entries.filter((e) => e.pid !== pid), entry]);
  watchToolGroup(pid, entry.start);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (live.get(pid)?.entry === entry) live.delete(pid);
    unwatchToolGroup(pid, entry.start);
    update(tag.root, (entries) => entries.filter((e) => !(e.pid === pid && e.owner === entry.owner)));
  };
}

/** Sends `signal` to process group `pid` (its leader's pid); a group already gone is no error. */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* the group is already gone */
  }
}

function alive(pid: number, start: string | null): boolean {
  const now = processStartTime(pid);
  return now !== null && (start === null || now === start);
}

/**
 * Whether process group `pgid` has a member that is not a zombie: `/proc` is scanned (a group of
 * zombies nobody waits for, e.g. under a container's init, counts as gone); without procfs, any
 * member counts.
 */
export function groupExists(pgid: number): boolean {
  if (!groupSignalable(pgid)) return false;
  const pids = procPids();
  return pids === null ? true : pids.some((p) => liveMemberOf(p, pgid));
}

/**
 * Pids of the members of process group `pgid` that are not zombies, from `/proc`; an empty list
 * without procfs.
 */
export function groupMembers(pgid: number): number[] {
  if (!groupSignalable(pgid)) return []; // no such group: no scan (the common case costs one syscall)
  return (procPids() ?? []).filter((p) => liveMemberOf(p, pgid)).map(Number);
}

/** Whether some process of group `pgid` exists (signal 0; EPERM still means it exists). */
function groupSignalable(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The numeric entries of `/proc`, or null without procfs. */
function procPids(): string[] | null {
  try {
    return readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return null;
  }
}

/** Whether `/proc/<pid>` is a member of group `pgid` that is not a zombie. */
function liveMemberOf(pid: string, pgid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[2] === String(pgid) && fields[0] !== 'Z' && fields[0] !== 'X';
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* gone */
  }
}

/** Time between SIGTERM and SIGKILL when reaping a left-over group, ms. */
export const REAP_GRACE_MS = 2_000;

/** Time between SIGTERM and SIGKILL when the daemon's clean stop ends its tool processes, ms. */
export const STOP_GRACE_MS = 2_000;

/** How long a group may take to vanish after SIGKILL before the wait gives up, ms. */
const KILL_WAIT_MS = 1_000;

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Ends the process groups `pgids`: SIGTERM to each, SIGKILL to those still there after `graceMs`,
 * then waits (at most `KILL_WAIT_MS`) for them to be gone.
 * @returns the groups that needed SIGKILL.
 */
async function endGroups(pgids: number[], graceMs: number): Promise<Set<number>> {
  for (const g of pgids) signalGroup(g, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pgids.some(groupExists) && Date.now() < deadline) await pause(50);
  const forced = new Set(pgids.filter(groupExists));
  for (const g of forced) signalGroup(g, 'SIGKILL');
  const gone = Date.now() + KILL_WAIT_MS;
  while ([...forced].some(groupExists) && Date.now() < gone) await pause(20);
  return forced;
}

/** What `reapToolProcessesAtStart` found and did. */
export interface ReapReport {
  /** Entries of a dead owner whose group still ran and was stopped now. */
  stopped: ToolProcessEntry[];
  /** Entries of a dead owner whose group had already ended (its watchdog ended it). */
  ended: ToolProcessEntry[];
  /** What was wrong with the record file, each naming it (see tool-record.ts). */
  problems: string[];
}

/**
 * Daemon start: handles the entries a dead owner left (see the file comment), drops them, and
 * logs one line per problem of the file, per stopped group and per group that had ended. A
 * damaged record is copied aside (named in the log) and replaced by its whole entries. Never
 * rejects for a damaged or unwritable record.
 */
export async function reapToolProcessesAtStart(
  root: string,
  log: (line: string) => void = () => {},
): Promise<ReapReport> {
  const loaded = loadToolRecord(root);
  for (const p of loaded.problems) log(p);
  if (loaded.damaged) {
    const copy = keepDamagedToolRecord(root);
    log(copy ? `the damaged file is kept as ${copy}` : 'the damaged file could not be copied aside');
    try {
      writeToolRecord(root, loaded.entries);
    } catch (err) {
      log(`cannot rewrite the record of tool processes: ${(err as Error).message}`);
    }
  }
  // the owner still runs (this process, or a `hermes chat`): its entries are its own business
  const stale = loaded.entries.filter((e) => !alive(e.owner, e.owner_start));
  const report: ReapReport = { stopped: [], ended: [], problems: loaded.problems };
  if (stale.length === 0) return report;
  for (const e of stale) {
    const leader = processStartTime(e.pid);
    const running = leader !== null ? e.start === null || leader === e.start : groupExists(e.pid);
    (running ? report.stopped : report.ended).push(e);
  }
  const forced = await endGroups(
    report.stopped.map((e) => e.pid),
    REAP_GRACE_MS,
  );
  for (const e of report.stopped)
    log(
      `a command left running by the previous daemon was stopped: pid ${e.pid} (process group, ${forced.has(e.pid) ? 'SIGKILL' : 'SIGTERM'}), profile ${e.profile}, session ${e.session}: ${e.command}`,
    );
  for (const e of report.ended)
    log(
      `a command the previous daemon was running when it died had ended with it: pid ${e.pid}, profile ${e.profile}, session ${e.session}: ${e.command}`,
    );
  const gone = (e: ToolProcessEntry): boolean => stale.some((s) => s.pid === e.pid && s.owner === e.owner);
  update(root, (now) => now.filter((e) => !gone(e)));
  return report;
}

/**
 * `reapToolProcessesAtStart`, answering only the entries whose groups were stopped.
 * @returns the entries whose groups were stopped.
 */
export async function reapToolProcesses(
  root: string,
  log: (line: string) => void = () => {},
): Promise<ToolProcessEntry[]> {
  return (await reapToolProcessesAtStart(root, log)).stopped;
}

/**
 * The daemon's clean stop: ends the process groups of the tool processes this process still runs
 * (those the drain's interrupts did not end: SIGTERM, SIGKILL after `graceMs`), waits until they
 * are gone, drops their entries and logs one line each. A leader whose start time changed is a
 * reused pid and is left alone.
 * @returns the entries whose groups were ended.
 */
export async function stopToolProcesses(
  log: (line: string) => void = () => {},
  graceMs = STOP_GRACE_MS,
): Promise<ToolProcessEntry[]> {
  const targets = [...live.values()].filter(({ entry: e }) => {
    const leader = processStartTime(e.pid);
    return leader !== null ? e.start === null || leader === e.start : groupExists(e.pid);
  });
  if (targets.length === 0) return [];
  const forced = await endGroups(
    targets.map((t) => t.entry.pid),
    graceMs,
  );
  for (const { root, entry: e } of targets) {
    log(
      `stopping: a command still running was stopped: pid ${e.pid} (process group, ${forced.has(e.pid) ? 'SIGKILL' : 'SIGTERM'}), profile ${e.profile}, session ${e.session}: ${e.command}`,
    );
    if (live.get(e.pid)?.entry === e) live.delete(e.pid);
    unwatchToolGroup(e.pid, e.start);
    update(root, (now) => now.filter((x) => !(x.pid === e.pid && x.owner === e.owner)));
  }
  return targets.map((t) => t.entry);
}
