/**
 * The record of running tool processes (`<root>/run/tool-processes.json`, 0600, replaced
 * atomically), so a daemon started after a `kill -9` can stop what the previous one left running.
 *
 * - Each entry names the process (pid, its start time from `/proc/<pid>/stat`), the session, the
 *   profile, the command, and the process that started it (the owner: pid and start time).
 * - A tool process is the leader of its own process group (spawned detached), so stopping it
 *   means signalling the group: its children and grandchildren go too.
 * - An entry is added when the process starts and removed when it ends.
 * - `reapToolProcesses` (daemon start) stops the groups of entries whose owner is gone: SIGTERM,
 *   then SIGKILL after 2 s. A leader still alive is signalled only when its start time matches the
 *   recorded one (a reused pid is left alone); a dead leader whose group still exists is the
 *   recorded group, since Linux never hands out a pid still used as a group id. Entries of a live
 *   owner (another `hermes chat` process) are kept.
 * - Writers read, change and replace the file synchronously; two processes writing in the same
 *   instant may lose one entry, which only means that process is not reaped after a crash.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';

/** One recorded tool process. */
export interface ToolProcessEntry {
  pid: number;
  /** Start time of the process (field 22 of `/proc/<pid>/stat`, clock ticks since boot). */
  start: string | null;
  session: string;
  profile: string;
  command: string;
  /** The process that started it (a daemon or `hermes chat`) and that process's start time. */
  owner: number;
  owner_start: string | null;
}

/** What a tool process is recorded under. */
export interface ToolProcessTag {
  root: string;
  session: string;
  profile: string;
}

/** The file of recorded tool processes under `root`. */
export function toolProcessesFile(root: string): string {
  return join(root, 'run', 'tool-processes.json');
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

function readEntries(root: string): ToolProcessEntry[] {
  try {
    const v: unknown = JSON.parse(readFileSync(toolProcessesFile(root), 'utf8'));
    return Array.isArray(v) ? (v as ToolProcessEntry[]).filter((e) => Number.isInteger(e?.pid)) : [];
  } catch {
    return [];
  }
}

function writeEntries(root: string, entries: ToolProcessEntry[]): void {
  mkdirSync(join(root, 'run'), { recursive: true, mode: 0o700 });
  writeFileAtomic(toolProcessesFile(root), `${JSON.stringify(entries, null, 2)}\n`, 0o600);
}

function update(root: string, change: (entries: ToolProcessEntry[]) => ToolProcessEntry[]): void {
  try {
    writeEntries(root, change(readEntries(root)));
  } catch {
    /* the record is best effort: a tool must run even when the root is not writable */
  }
}

let ownStart: string | null | undefined;

/**
 * Records tool process `pid` (running `command`) under `tag.root`.
 * @returns a function that removes the entry; call it when the process has ended.
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
  update(tag.root, (entries) => [...entries.filter((e) => e.pid !== pid), entry]);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    update(tag.root, (entries) => entries.filter((e) => !(e.pid === pid && e.owner === entry.owner)));
  };
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

/**
 * Stops the tool processes a dead owner left running (see the file comment) and drops their
 * entries. Logs one line per stopped process.
 * @returns the entries whose groups were stopped.
 */
export async function reapToolProcesses(
  root: string,
  log: (line: string) => void = () => {},
): Promise<ToolProcessEntry[]> {
  const entries = readEntries(root);
  if (entries.length === 0) return [];
  // the owner still runs (this process, or a `hermes chat`): its entries are its own business
  const stale = entries.filter((e) => !alive(e.owner, e.owner_start));
  if (stale.length === 0) return [];
  const targets = stale.filter((e) => {
    const leader = processStartTime(e.pid);
    if (leader !== null) return e.start === null || leader === e.start;
    return groupExists(e.pid);
  });
  for (const e of targets) signalGroup(e.pid, 'SIGTERM');
  const deadline = Date.now() + REAP_GRACE_MS;
  while (targets.some((e) => groupExists(e.pid)) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  for (const e of targets) {
    const forced = groupExists(e.pid);
    if (forced) signalGroup(e.pid, 'SIGKILL');
    log(
      `a command left running by the previous daemon was stopped: pid ${e.pid} (process group, ${forced ? 'SIGKILL' : 'SIGTERM'}), profile ${e.profile}, session ${e.session}: ${e.command}`,
    );
  }
  const gone = (e: ToolProcessEntry): boolean => stale.some((s) => s.pid === e.pid && s.owner === e.owner);
  update(root, (now) => now.filter((e) => !gone(e)));
  return targets;
}
