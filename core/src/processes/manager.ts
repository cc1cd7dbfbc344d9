/**
 * The daemon's background processes (`terminal` with `background: true`, the `process` tool,
 * `process.*` methods): one manager per root, serving every profile, each profile seeing only
 * its own processes.
 *
 * - A process runs as `<shell> -c <command>` (inside `CommandSandbox.wrap` when the session has
 *   a sandbox), detached: the leader of its own process group, so it outlives the tool call, the
 *   turn and any client, and stopping it signals the whole group.
 * - stdout and stderr go straight into `<home>/processes/<id>.log` (log-file.ts: bounded,
 *   logical offsets); stdin is a pipe from the daemon (`write`), closed when the daemon exits.
 * - Every start and end is recorded (record.ts). `recover` (daemon start) adopts the entries
 *   still running whose leader has the recorded start time (a reused pid is not adopted) and
 *   marks the others `gone`. An adopted process has no stdin, and its exit status is unknown
 *   (it is not this process's child): it becomes `gone` when its group disappears.
 * - A process is its process group: when the shell exits while members of its group still run
 *   (`server &` inside the command), it stays `running` until the group is gone.
 * - `kill` sends SIGTERM to the group, then SIGKILL after `graceMs` if a member remains.
 * - `onChange` hears every start, end and adoption (the daemon broadcasts `process.changed` and
 *   tells a session whose process was started with `notify_on_complete`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { HermesHome } from '../home/home.js';
import { groupExists, processStartTime } from '../tools/process-registry.js';
import type { CommandSandbox } from '../tools/types.js';
import { LOG_KEEP_BYTES, LOG_MAX_BYTES, logSize, readLog, trimLog, type LogChunk } from './log-file.js';
import {
  keepDamagedRecord,
  loadBackgroundRecord,
  processAlive,
  writeBackgroundRecord,
  type BackgroundProcessEntry,
} from './record.js';

/** Time between SIGTERM and SIGKILL when stopping a background process group, ms. */
export const BACKGROUND_KILL_GRACE_MS = 3_000;
/** Ended processes kept listed per profile (older ones and their logs are removed). */
export const ENDED_KEPT_PER_PROFILE = 20;
/** Background processes one profile may have running at once; `start` refuses more. */
export const MAX_RUNNING_PER_PROFILE = 64;
/** How long a write to a process's stdin may wait for the process to read it, ms. */
export const WRITE_TIMEOUT_MS = 10_000;
/** Time between checks of the running logs' sizes (one stat each), ms. */
export const LOG_CHECK_MS = 50;
/** Longest `wait` a caller may ask for, ms. */
export const MAX_WAIT_MS = 600_000;

/** What changed, for `ProcessManagerOptions.onChange`. */
export interface ProcessChange {
  reason: 'started' | 'ended' | 'adopted' | 'stopping';
  entry: BackgroundProcessEntry;
}

/** Options of `ProcessManager`. */
export interface ProcessManagerOptions {
  /** The root whose `run/` holds the record. */
  root: string;
  log?: (line: string) => void;
  onChange?: (change: ProcessChange) => void;
  /** Log cap and the part kept by a trim, bytes (defaults 5 MiB / 2.5 MiB). */
  maxLogBytes?: number;
  keepLogBytes?: number;
  /** Time between liveness checks (groups, adopted processes) and log trims, ms (default 500). */
  tickMs?: number;
  /** Time between checks of the logs' sizes, ms (default `LOG_CHECK_MS`). */
  logCheckMs?: number;
  /** SIGTERM → SIGKILL grace, ms (default `BACKGROUND_KILL_GRACE_MS`). */
  graceMs?: number;
  /** Running processes allowed per profile (default `MAX_RUNNING_PER_PROFILE`). */
  maxRunningPerProfile?: number;
  /** Longest wait for a stdin write to be taken by the process, ms (default `WRITE_TIMEOUT_MS`). */
  writeTimeoutMs?: number;
}

/** What `start` needs. */
export interface StartProcessOptions {
  home: HermesHome;
  session: string;
  command: string;
  cwd: string;
  /** The child's whole environment. */
  env: Record<string, string>;
  /** The shell (default `/bin/sh`; the terminal tool passes its `resolveShell()`). */
  shell?: string;
  sandbox?: CommandSandbox;
  notify?: boolean;
}

/** Thrown for an unknown id, or one of another profile (it is reported as unknown). */
export class UnknownProcessError extends Error {
  constructor(id: string) {
    super(`no background process "${id}" in this profile (see process action "list")`);
    this.name = 'UnknownProcessError';
  }
}

interface Live {
  entry: BackgroundProcessEntry;
  child?: ChildProcess;
  /** How the leader (own child) exited while members of its group still ran. */
  leaderExit?: { code: number | null; signal: string | null };
  stopping?: boolean;
  waiters: Array<() => void>;
}

/** The background processes of one root (see the file comment). */
export class ProcessManager {
  private readonly procs = new Map<string, Live>();
  private readonly timer: NodeJS.Timeout;
  private readonly maxLog: number;
  private readonly keepLog: number;
  private readonly grace: number;
  /** Runs while a process runs (no wake-ups of an idle daemon). */
  private logTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: ProcessManagerOptions) {
    this.maxLog = opts.maxLogBytes ?? LOG_MAX_BYTES;
    this.keepLog = opts.keepLogBytes ?? LOG_KEEP_BYTES;
    this.grace = opts.graceMs ?? BACKGROUND_KILL_GRACE_MS;
    this.timer = setInterval(() => this.tick(), opts.tickMs ?? 500);
    this.timer.unref();
  }

  /**
   * Reads the record (daemon start): adopts running entries whose leader still has its start
   * time, marks the others `gone`, logs one line each.
   * @returns the adopted entries.
   */
  recover(): BackgroundProcessEntry[] {
    const adopted: BackgroundProcessEntry[] = [];
    const record = loadBackgroundRecord(this.opts.root);
    for (const p of record.problems) this.opts.log?.(`background processes: ${p}`);
    if (record.problems.length > 0) {
      // the next save replaces the file: what could not be used is kept beside it
      const copy = keepDamagedRecord(this.opts.root);
      const rest = record.unreadable ? 'starting with an empty list' : 'the other entries are kept';
      this.opts.log?.(
        copy
          ? `background processes: the damaged record is kept as ${copy}; ${rest}`
          : `background processes: the damaged record could not be copied aside; ${rest}`,
      );
    }
    for (const e of record.entries) {
      if (this.procs.has(e.id)) continue;
      if (e.state === 'running') {
        if (processAlive(e)) {
          e.adopted = true;
          adopted.push(e);
          this.opts.log?.(
            `background process ${e.id} (pid ${e.pid}, profile ${e.profile}) survived the previous daemon and is adopted (its stdin is gone): ${e.command}`,
          );
        } else {
          e.state = 'gone';
          e.ended_at = new Date().toISOString();
          this.opts.log?.(
            `background process ${e.id} (pid ${e.pid}, profile ${e.profile}) ended while no daemon watched it${processStartTime(e.pid) !== null ? ' (its pid now belongs to another process: not adopted)' : ''}: ${e.command}`,
          );
        }
      }
      this.procs.set(e.id, { entry: e, waiters: [] });
    }
    this.save();
    if (adopted.length > 0) this.watchLogs();
    for (const e of adopted) this.opts.onChange?.({ reason: 'adopted', entry: e });
    return adopted;
  }

  /**
   * Starts `command` in the background (see the file comment).
   * @throws Error when the profile already runs `maxRunningPerProfile` processes, the sandbox
   *   refuses or the shell cannot be started (nothing is recorded).
   */
  start(o: StartProcessOptions): BackgroundProcessEntry {
    const cap = this.opts.maxRunningPerProfile ?? MAX_RUNNING_PER_PROFILE;
    if (this.runningCount(o.home.profile) >= cap)
      throw new Error(
        `${cap} background processes already run in profile "${o.home.profile}" (the most allowed); wait for one to end or kill one (process action "kill") first`,
      );
    const id = `bg-${randomBytes(4).toString('hex')}`;
    const dir = join(o.home.dir, 'processes');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const log = join(dir, `${id}.log`);
    const argv = [o.shell ?? '/bin/sh', '-c', o.command];
    // detached: a background process may outlive the daemon (keep_on_stop, adoption after a restart)
    const wrapped = o.sandbox ? o.sandbox.wrap(argv, { cwd: o.cwd, detach: true }) : argv;
    const fd = openSync(log, 'a', 0o600);
    let child: ChildProcess;
    try {
      child = spawn(wrapped[0]!, wrapped.slice(1), {
        cwd: o.cwd,
        env: o.env,
        detached: true,
        stdio: ['pipe', fd, fd],
      });
    } finally {
      closeSync(fd);
    }
    if (child.pid === undefined) {
      child.once('error', () => {}); // reported by the throw below
      throw new Error(`cannot start ${wrapped[0]} in ${o.cwd}`);
    }
    child.unref();
    child.stdin?.on('error', () => {}); // EPIPE after the process closed its stdin
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    const entry: BackgroundProcessEntry = {
      id,
      pid: child.pid,
      start: processStartTime(child.pid),
      profile: o.home.profile,
      session: o.session,
      command: o.command.length > 2000 ? `${o.command.slice(0, 1997)}...` : o.command,
      cwd: o.cwd,
      log,
      started_at: new Date().toISOString(),
      notify: o.notify ?? false,
      state: 'running',
      exit_code: null,
      signal: null,
      ended_at: null,
      dropped: 0,
      adopted: false,
    };
    const live: Live = { entry, child, waiters: [] };
    this.procs.set(id, live);
    child.once('exit', (code, signal) => {
      this.trim(live);
      // `server &` inside the command: the shell is gone but its group runs on; the process
      // ends when the group does (seen by the tick), with the shell's exit status
      if (!live.stopping && groupExists(entry.pid)) live.leaderExit = { code, signal };
      else this.ended(live, live.stopping ? 'killed' : 'exited', code, signal);
    });
    this.prune(entry.profile);
    this.save();
    this.watchLogs();
    this.opts.onChange?.({ reason: 'started', entry });
    return entry;
  }

  /** The processes of `profile`, newest first. */
  list(profile: string): BackgroundProcessEntry[] {
    return [...this.procs.values()]
      .map((l) => l.entry)
      .filter((e) => e.profile === profile)
      .sort((a, b) => b.started_at.localeCompare(a.started_at));
  }

  /** Running processes of `profile`. */
  runningCount(profile: string): number {
    return this.list(profile).filter((e) => e.state === 'running').length;
  }

  /** Every running process of any profile. */
  running(): BackgroundProcessEntry[] {
    return [...this.procs.values()].map((l) => l.entry).filter((e) => e.state === 'running');
  }

  /**
   * The process `id` of `profile`.
   * @throws UnknownProcessError when there is none (or it belongs to another profile).
   */
  get(profile: string, id: string): BackgroundProcessEntry {
    return this.live(profile, id).entry;
  }

  /**
   * Output of `id` from logical `offset` (negative: the last `-offset` bytes), at most `maxBytes`.
   * @throws UnknownProcessError.
   */
  read(profile: string, id: string, offset: number, maxBytes?: number): LogChunk {
    const l = this.live(profile, id);
    this.trim(l);
    return readLog(l.entry.log, l.entry.dropped, offset, maxBytes);
  }

  /**
   * Waits until `id` is no longer running, at most `timeoutMs` (capped at `MAX_WAIT_MS`) or
   * until `signal` aborts.
   * @returns the entry and whether it ended within the wait.
   * @throws UnknownProcessError.
   */
  async wait(
    profile: string,
    id: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ entry: BackgroundProcessEntry; ended: boolean }> {
    const l = this.live(profile, id);
    if (l.entry.state === 'running' && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(t);
          signal?.removeEventListener('abort', done);
          l.waiters = l.waiters.filter((w) => w !== done);
          resolve();
        };
        const t = setTimeout(done, Math.min(Math.max(0, timeoutMs), MAX_WAIT_MS));
        signal?.addEventListener('abort', done, { once: true });
        l.waiters.push(done);
      });
    }
    return { entry: l.entry, ended: l.entry.state !== 'running' };
  }

  /**
   * Writes `data` to the stdin of `id`.
   * @throws UnknownProcessError; Error when it has ended or its stdin is not this daemon's.
   */
  async write(profile: string, id: string, data: string): Promise<void> {
    const l = this.live(profile, id);
    if (l.entry.state !== 'running') throw new Error(`background process ${id} has ended (${l.entry.state})`);
    const stdin = l.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable)
      throw new Error(
        l.entry.adopted
          ? `background process ${id} was started by an earlier daemon: its stdin is gone`
          : `the stdin of background process ${id} is closed`,
      );
    const ms = this.opts.writeTimeoutMs ?? WRITE_TIMEOUT_MS;
    await new Promise<void>((resolve, reject) => {
      // a process that never reads leaves a large write pending forever: give up after `ms`
      const t = setTimeout(
        () =>
          reject(
            new Error(
              `background process ${id} does not read its stdin: the write was not taken within ${ms / 1000} s`,
            ),
          ),
        ms,
      );
      stdin.write(data, (err) => {
        clearTimeout(t);
        if (err) reject(new Error(`writing to ${id} failed: ${err.message}`));
        else resolve();
      });
    });
  }

  /**
   * Stops `id`'s process group: SIGTERM, then SIGKILL after the grace when a member remains.
   * A process that already ended is returned as it is.
   * @throws UnknownProcessError.
   */
  async kill(profile: string, id: string): Promise<BackgroundProcessEntry> {
    const l = this.live(profile, id);
    await this.stop([l]);
    return l.entry;
  }

  /**
   * Stops every running process (daemon stop) that `which` selects (default all), telling
   * `onChange` (`stopping`) first.
   * @returns the entries stopped.
   */
  async stopAll(
    which: (e: BackgroundProcessEntry) => boolean = () => true,
  ): Promise<BackgroundProcessEntry[]> {
    const targets = [...this.procs.values()].filter((l) => l.entry.state === 'running' && which(l.entry));
    for (const l of targets) this.opts.onChange?.({ reason: 'stopping', entry: l.entry });
    await this.stop(targets);
    return targets.map((l) => l.entry);
  }

  /** Stops the timer; processes keep running and stay recorded for the next daemon. */
  close(): void {
    clearInterval(this.timer);
    clearInterval(this.logTimer);
    for (const l of this.procs.values()) {
      this.trim(l);
      l.child?.stdin?.destroy();
    }
    this.save();
  }

  private live(profile: string, id: string): Live {
    const l = this.procs.get(id);
    if (!l || l.entry.profile !== profile) throw new UnknownProcessError(id);
    return l;
  }

  private async stop(targets: Live[]): Promise<void> {
    const running = targets.filter((l) => l.entry.state === 'running');
    // a leader that no longer has its start time is a reused pid (or gone): never signalled
    const group = (l: Live): boolean => (l.child ? groupExists(l.entry.pid) : processAlive(l.entry));
    const signalled = running.filter(group);
    for (const l of running) l.stopping = true;
    for (const l of signalled) signalGroup(l.entry.pid, 'SIGTERM');
    const deadline = Date.now() + this.grace;
    while (signalled.some((l) => groupExists(l.entry.pid)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    for (const l of signalled) if (groupExists(l.entry.pid)) signalGroup(l.entry.pid, 'SIGKILL');
    // an own child reports its exit through 'exit'; wait for it briefly, then record it here
    const until = Date.now() + 1_000;
    while (running.some((l) => l.child && !l.leaderExit && l.entry.state === 'running') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    for (const l of running) if (l.entry.state === 'running') this.ended(l, 'killed', null, 'SIGTERM');
  }

  private ended(
    l: Live,
    state: 'exited' | 'killed' | 'gone',
    code: number | null,
    signal: string | null,
  ): void {
    if (l.entry.state !== 'running') return;
    l.entry.state = state;
    l.entry.exit_code = code;
    l.entry.signal = signal;
    l.entry.ended_at = new Date().toISOString();
    l.child?.stdin?.destroy();
    this.save();
    for (const w of [...l.waiters]) w();
    this.opts.onChange?.({ reason: 'ended', entry: l.entry });
  }

  /** Trims the log when it is over the cap. @returns whether it was trimmed. */
  private trim(l: Live, save = true): boolean {
    if (logSize(l.entry.log) <= this.maxLog) return false;
    const dropped = trimLog(l.entry.log, this.maxLog, this.keepLog);
    if (dropped <= 0) return false;
    l.entry.dropped += dropped;
    if (save) this.save();
    return true;
  }

  /**
   * Checks the size of every running log (a stat each) and trims those over the cap, saving the
   * record once: a process that floods its output keeps the file within the cap plus what it
   * writes in `logCheckMs`.
   */
  private checkLogs(): void {
    let trimmed = false;
    let running = false;
    for (const l of this.procs.values()) {
      if (l.entry.state !== 'running' || l.stopping) continue;
      running = true;
      if (this.trim(l, false)) trimmed = true;
    }
    if (trimmed) this.save();
    if (!running) {
      clearInterval(this.logTimer);
      this.logTimer = undefined;
    }
  }

  /** Starts the log checks when they are not running (a process started or was adopted). */
  private watchLogs(): void {
    if (this.logTimer) return;
    this.logTimer = setInterval(() => this.checkLogs(), this.opts.logCheckMs ?? LOG_CHECK_MS);
    this.logTimer.unref();
  }

  private tick(): void {
    for (const l of this.procs.values()) {
      if (l.entry.state !== 'running' || l.stopping) continue; // `stop` records a stopped one
      this.trim(l);
      if (l.leaderExit) {
        if (!groupExists(l.entry.pid)) this.ended(l, 'exited', l.leaderExit.code, l.leaderExit.signal);
      } else if (!l.child && !processAlive(l.entry)) this.ended(l, 'gone', null, null);
    }
  }

  /** Keeps the newest `ENDED_KEPT_PER_PROFILE` ended entries of `profile`; removes older logs. */
  private prune(profile: string): void {
    const ended = this.list(profile).filter((e) => e.state !== 'running');
    for (const e of ended.slice(ENDED_KEPT_PER_PROFILE)) {
      this.procs.delete(e.id);
      // only the entry's own log file: a record edited by hand may name any file
      if (e.log.endsWith(`/processes/${e.id}.log`)) rmSync(e.log, { force: true });
    }
  }

  private save(): void {
    try {
      writeBackgroundRecord(
        this.opts.root,
        [...this.procs.values()].map((l) => l.entry),
      );
    } catch (err) {
      this.opts.log?.(`cannot write the background process record: ${(err as Error).message}`);
    }
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* gone */
  }
}
