/**
 * The background processes a session's tools may use (`ToolContext.processes`): the daemon's
 * `ProcessManager` narrowed to the session's profile. `start` names the session (the tool's
 * `ctx.sessionId`, which follows compression), whom a `notify_on_complete` message goes to.
 */
import type { HermesHome } from '../home/home.js';
import type { LogChunk } from './log-file.js';
import type { ProcessManager, StartProcessOptions } from './manager.js';
import type { BackgroundProcessEntry } from './record.js';

/** What the `terminal` and `process` tools use; every id is looked up in this profile only. */
export interface SessionProcesses {
  /** Starts `command` detached (manager.ts `start`). @throws Error when it cannot start. */
  start(o: Omit<StartProcessOptions, 'home'>): BackgroundProcessEntry;
  /** This profile's processes, newest first. */
  list(): BackgroundProcessEntry[];
  /** The process `id`. @throws UnknownProcessError. */
  get(id: string): BackgroundProcessEntry;
  /** Output from logical byte `offset` (negative: the last `-offset` bytes). @throws UnknownProcessError. */
  read(id: string, offset: number, maxBytes?: number): LogChunk;
  /** Waits for the end, at most `timeoutMs`. @throws UnknownProcessError. */
  wait(
    id: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ entry: BackgroundProcessEntry; ended: boolean }>;
  /** Writes to its stdin. @throws UnknownProcessError; Error when ended or adopted. */
  write(id: string, data: string): Promise<void>;
  /** Stops its process group. @throws UnknownProcessError. */
  kill(id: string): Promise<BackgroundProcessEntry>;
}

/** `manager` narrowed to `home`'s profile. */
export function profileProcesses(manager: ProcessManager, home: HermesHome): SessionProcesses {
  const p = home.profile;
  return {
    start: (o) => manager.start({ ...o, home }),
    list: () => manager.list(p),
    get: (id) => manager.get(p, id),
    read: (id, offset, maxBytes) => manager.read(p, id, offset, maxBytes),
    wait: (id, timeoutMs, signal) => manager.wait(p, id, timeoutMs, signal),
    write: (id, data) => manager.write(p, id, data),
    kill: (id) => manager.kill(p, id),
  };
}
