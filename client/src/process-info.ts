/**
 * Is a process (still) the one we think it is? Used to tell a live daemon from a stale lock or
 * discovery file left by a killed one. A pid alone can be reused, so on Linux the process start
 * time (`/proc/<pid>/stat` field 22, clock ticks since boot) is recorded beside it and compared.
 * The daemon records its own identity (`selfIdentity`); clients and the daemon check it.
 */
import { readFileSync } from 'node:fs';

/**
 * True when a process with this pid exists (signal 0 succeeds, or fails with EPERM: it exists but
 * belongs to another user).
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Start time of a process as recorded by Linux (`/proc/<pid>/stat` field 22), as a string;
 * undefined where /proc is unavailable or the process is gone. Also undefined for a zombie.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may itself contain spaces.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] === 'Z' || rest[0] === 'X') return undefined;
    return rest[19];
  } catch {
    return undefined;
  }
}

/** Who holds a lock or wrote a discovery file. */
export interface ProcessIdentity {
  pid: number;
  /** `processStartTime(pid)` when it was recorded, if known. */
  proc_start?: string;
}

/**
 * True when the recorded process is still running: its pid is alive and, when a start time was
 * recorded and can be read now, the start times match (else the pid was reused).
 */
export function isSameProcessAlive(who: ProcessIdentity): boolean {
  if (!isProcessAlive(who.pid)) return false;
  if (who.proc_start === undefined) return true;
  const now = processStartTime(who.pid);
  if (now === undefined) {
    // /proc readable for ourselves but not for the pid: the process is a zombie or gone.
    return processStartTime(process.pid) === undefined;
  }
  return now === who.proc_start;
}

/** The identity of the current process. */
export function selfIdentity(): ProcessIdentity {
  const proc_start = processStartTime(process.pid);
  return proc_start === undefined ? { pid: process.pid } : { pid: process.pid, proc_start };
}
