/**
 * The daemon's background processes (core/src/processes/): one `ProcessManager` for the root,
 * the `process.list` / `process.kill` methods (in the connection's profile, or the `profile`
 * param), `process.changed` to every client, the message a session gets when a process it started
 * with `notify_on_complete` ends, and what happens to them when the daemon stops.
 *
 * - Start: processes an earlier daemon left running are adopted when their leader still has its
 *   recorded start time (logged; `process.changed` reason `adopted`), the rest are marked gone.
 * - Stop (`hermes gateway stop`, SIGTERM), after the sessions drained: every client gets
 *   `process.changed` reason `stopping` and the log a line per process, then their groups are
 *   stopped (SIGTERM, SIGKILL after 3 s) — except the processes of profiles with
 *   `terminal.background.keep_on_stop: true`, which keep running for the next daemon to adopt.
 */
import {
  completionNotice,
  ProcessManager,
  UnknownProcessError,
  type BackgroundProcessEntry,
  type ProcessChange,
} from '@hermes/core/processes';
import { RpcErrorCode, wireEvent, type BackgroundProcessInfo } from '@hermes/core/protocol';
import type { DaemonContext } from '../lifecycle/daemon.js';
import { RpcMethodError, type Connection, type HandlerRegistry } from '../rpc/types.js';

/**
 * Completion notices one session may get as turns within `NOTICE_WINDOW_MS`. Later ones in the
 * window are logged only (the process stays listed with its exit status): a model could otherwise
 * keep its session running with no person in it by starting a notifying process from each notice.
 */
export const NOTICE_LIMIT = 8;
/** The window of `NOTICE_LIMIT`, ms. */
export const NOTICE_WINDOW_MS = 10 * 60_000;

/** What the service needs of the session layer. */
export interface ProcessSessions {
  /** Queues `text` as a prompt of session `id` of `profile` (runs a turn when it is idle). */
  submit(profile: string, id: string, text: string, by: string): void;
  /** `terminal.background.keep_on_stop` of `profile`. */
  keepOnStop(profile: string): boolean;
}

/** The running service. */
export interface ProcessService {
  readonly manager: ProcessManager;
  /** The daemon stops: stop (or leave running) the processes, then the manager. */
  stop(): Promise<void>;
}

/** The wire form of an entry. */
export function toProcessInfo(e: BackgroundProcessEntry): BackgroundProcessInfo {
  return {
    id: e.id,
    pid: e.pid,
    profile: e.profile,
    session: e.session,
    command: e.command,
    cwd: e.cwd,
    log: e.log,
    started_at: e.started_at,
    state: e.state,
    exit_code: e.exit_code,
    signal: e.signal,
    ended_at: e.ended_at,
    notify: e.notify,
    adopted: e.adopted,
  };
}

/**
 * Starts the service for `ctx.root`: adopts survivors, registers the methods.
 * @param sessions the session layer, once it exists (notices wait for nothing: without it they are logged).
 */
export function startProcessService(
  rpc: HandlerRegistry,
  ctx: Pick<DaemonContext, 'root' | 'log' | 'broadcast'>,
  sessions: () => ProcessSessions | undefined,
  opts: { graceMs?: number } = {},
): ProcessService {
  let stopping = false;
  const log = (line: string): void => ctx.log.info(line);
  const onChange = ({ reason, entry }: ProcessChange): void => {
    ctx.broadcast(
      wireEvent(
        'process.changed',
        '*',
        0,
        {
          profile: entry.profile,
          reason,
          process: toProcessInfo(entry),
          running: manager.runningCount(entry.profile),
        },
        Date.now(),
      ),
    );
    if (reason === 'ended' && entry.notify && !stopping) notify(entry);
  };
  /** Times of the notices each session got as turns, newest last (`profile/session` → ms). */
  const noticed = new Map<string, number[]>();
  const underLimit = (entry: BackgroundProcessEntry): boolean => {
    const key = `${entry.profile}/${entry.session}`;
    const now = Date.now();
    const recent = (noticed.get(key) ?? []).filter((t) => now - t < NOTICE_WINDOW_MS);
    if (recent.length >= NOTICE_LIMIT) {
      noticed.set(key, recent);
      return false;
    }
    recent.push(now);
    noticed.set(key, recent);
    return true;
  };
  const notify = (entry: BackgroundProcessEntry): void => {
    if (!underLimit(entry)) {
      log(
        `background process ${entry.id} ended (${entry.state}); session ${entry.session} not told: ` +
          `${NOTICE_LIMIT} notices within ${NOTICE_WINDOW_MS / 60_000} min already ran turns there`,
      );
      return;
    }
    const s = sessions();
    try {
      const tail = manager.read(entry.profile, entry.id, -2_000, 2_000).text;
      if (!s) throw new Error('no session layer');
      s.submit(entry.profile, entry.session, completionNotice(entry, tail), `process:${entry.id}`);
      log(`background process ${entry.id} ended (${entry.state}): session ${entry.session} told`);
    } catch (err) {
      log(
        `background process ${entry.id} ended; session ${entry.session} could not be told: ${(err as Error).message}`,
      );
    }
  };
  const manager = new ProcessManager({
    root: ctx.root,
    log,
    onChange,
    ...(opts.graceMs ? { graceMs: opts.graceMs } : {}),
  });
  manager.recover();

  const profileOf = (conn: Connection, p?: string): string => p ?? conn.profile;
  rpc.register('process.list', async (p, conn) => {
    const profile = profileOf(conn, p.profile);
    const processes = manager.list(profile).map(toProcessInfo);
    return { processes, running: processes.filter((x) => x.state === 'running').length };
  });
  rpc.register('process.kill', async (p, conn) => {
    try {
      return { process: toProcessInfo(await manager.kill(profileOf(conn, p.profile), p.id)) };
    } catch (err) {
      if (err instanceof UnknownProcessError)
        throw new RpcMethodError(RpcErrorCode.InvalidParams, err.message);
      throw err;
    }
  });

  return {
    manager,
    async stop() {
      stopping = true;
      const keep = (e: BackgroundProcessEntry): boolean => {
        try {
          return sessions()?.keepOnStop(e.profile) ?? false;
        } catch {
          return false;
        }
      };
      for (const e of manager.running())
        log(
          keep(e)
            ? `background process ${e.id} (pid ${e.pid}, profile ${e.profile}) left running (terminal.background.keep_on_stop): ${e.command}`
            : `the daemon stops: stopping background process ${e.id} (pid ${e.pid}, profile ${e.profile}, session ${e.session}): ${e.command}`,
        );
      await manager.stopAll((e) => !keep(e));
      manager.close();
    },
  };
}
