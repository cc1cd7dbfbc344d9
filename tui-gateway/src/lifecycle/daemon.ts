/**
 * `startDaemon`: the tui-gateway daemon in this process. `hermes gateway run` uses it;
 * tests and the session layer can start it in-process.
 *
 * Start: lock (`<root>/tui-gateway.lock`; a live owner → DaemonLockedError) → log →
 * `registerHandlers` → listen on 127.0.0.1:0 → discovery file (0600, new token and epoch) →
 * systemd TimeoutStopSec check.
 * Stop (`close()`, also on SIGTERM/SIGINT in run.ts): refuse new sockets → `gateway.shutdown`
 * event to every client (session_id `*`, seq 0) → `drain()` hook (bounded by drain timeout + 5 s)
 * → close sockets (1001) → remove discovery → release lock.
 */
import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { MAX_FRAME_BYTES, wireEvent, type MethodResult, type WireEvent } from '@hermes/core/protocol';
import { HermesHome } from '@hermes/core/home';
import { Dispatcher } from '../rpc/dispatcher.js';
import { makeInitialize, registerBuiltins } from '../rpc/builtin-methods.js';
import type { Connection, HandlerRegistry } from '../rpc/types.js';
import { CloseCode, type WsConnection } from '../transport/connection.js';
import { DEFAULT_OUTBOUND_LIMITS, type OutboundLimits } from '../transport/outbound-queue.js';
import { startGatewayServer, type GatewayServer } from '../transport/server.js';
import { inspectDiscovery, removeDiscovery, writeDiscovery, type DiscoveryInfo } from './discovery.js';
import { acquireDaemonLock, type DaemonLock } from './lock.js';
import { createLogger, type Logger, type LogLevel } from './logger.js';
import { selfIdentity } from '@hermes/client';
import { activeProfileName, listProfileNames } from './profiles.js';
import { stopTimeoutWarning, unitFilePath } from './systemd.js';

/** Counts the session layer reports for `gateway.status`. */
export interface DaemonStats {
  /** Live sessions in the daemon. */
  sessions_live: number;
  /** Clients attached to sessions; defaults to the number of initialized connections. */
  clients_attached?: number;
  /** Messaging platforms and their state (platforms/adapter-host.ts). */
  platforms?: MethodResult<'gateway.status'>['platforms'];
}

/** Reports live counts; called for every `gateway.status`. */
export type StatsHook = () => DaemonStats | Promise<DaemonStats>;

/** What the drain hook is asked to do. */
export interface DrainRequest {
  /** Why the daemon stops, e.g. `SIGTERM`, `close()`. */
  reason: string;
  /** `gateway.drain_timeout` in ms: how long running turns may take before being interrupted. */
  timeoutMs: number;
  /** Epoch ms by which the hook should have returned (start + timeoutMs). */
  deadline: number;
}

/**
 * The session layer's shutdown work: refuse new prompts, mark running sessions `resume_pending`
 * before waiting, let turns drain until the deadline, interrupt the rest, persist, write
 * `.clean_shutdown` only on a clean drain. Sockets are still open while it runs (clients see the
 * turns finish). The transport waits at most `timeoutMs + 5 s`, then stops anyway.
 * @returns `{clean}` for the log, or nothing.
 */
export type DrainHook = (req: DrainRequest) => Promise<{ clean: boolean } | void>;

/** Given to `registerHandlers`. */
export interface DaemonContext {
  root: string;
  /** The `default` profile's home (use `home.forProfile(name)` for others). */
  home: HermesHome;
  version: string;
  epoch: string;
  log: Logger;
  /** Initialized, open connections right now. */
  connections(): Connection[];
  /** Registers a callback run when a connection completes `initialize` (before its answer). */
  onConnection(cb: (conn: Connection) => void): void;
  /** Sends an event to every initialized connection. */
  broadcast(event: WireEvent): void;
  /** Aborted when shutdown begins. */
  shutdownSignal: AbortSignal;
}

/** Options of `startDaemon`. */
export interface DaemonOptions {
  /** The root this daemon serves (one daemon per root). */
  root: string;
  /** Reported in discovery, `initialize` and `gateway.status`. */
  version: string;
  /** Registers the session/prompt/config/... handlers. May be async; runs before listening. */
  registerHandlers?: (registry: HandlerRegistry, ctx: DaemonContext) => void | Promise<void>;
  drain?: DrainHook;
  stats?: StatsHook;
  /** Profiles served (default: `default` + `<root>/profiles/*`). */
  profiles?: () => string[] | Promise<string[]>;
  /** Profile of a connection whose `initialize` names none (default: `<root>/active_profile`). */
  activeProfile?: () => string;
  /** Served profiles that cannot be used now, with why (`initialize`'s `unavailable_profiles`). */
  unavailableProfiles?: () => Array<{ profile: string; error: string }>;
  /** `gateway.drain_timeout` in ms (default 30,000). */
  drainTimeoutMs?: number;
  /** Also log to stderr (default false; `hermes gateway run` sets it). */
  logStderr?: boolean;
  /** Lowest level logged (default `info`). */
  logLevel?: LogLevel;
  /** Check handler results against the schemas (default: NODE_ENV test/development). */
  validateResults?: boolean;
  /** A connection that has not completed `initialize` after this long is closed (4001), ms (default 30,000). */
  handshakeTimeoutMs?: number;
  /** WS ping interval, ms (default 15,000). */
  pingIntervalMs?: number;
  /** A connection silent this long is terminated, ms (default 45,000). */
  idleTimeoutMs?: number;
  /** Outbound queue bounds per connection (defaults: 1,000 frames / 8 MiB / 512 KiB high water). */
  outbound?: Partial<OutboundLimits>;
  /** Frames above MAX_FRAME_BYTES get -32007; above this the socket is closed with 1009 (16 MiB). */
  hardMaxPayload?: number;
  /** Time the drain hook gets beyond `drainTimeoutMs` before the stop goes on anyway, ms (default 5,000). */
  drainMarginMs?: number;
  /** Installed systemd unit to check against the drain timeout (default: the user unit path; null: skip). */
  systemdUnitFile?: string | null;
}

/** A running daemon. */
export interface DaemonHandle {
  port: number;
  /** Bearer token of this run (also in the discovery file). */
  token: string;
  /** Random per start. */
  epoch: string;
  pid: number;
  /** ISO start time. */
  startedAt: string;
  /** Discovery file path. */
  discoveryFile: string;
  log: Logger;
  /** The running status, as `gateway.status` reports it (`caller` is not counted as a client). */
  status(caller?: Connection): Promise<MethodResult<'gateway.status'>>;
  /** Initialized, open connections. */
  connections(): Connection[];
  /** Graceful stop (see the module doc). Idempotent: later calls return the same promise. */
  close(reason?: string): Promise<void>;
  /** Resolves once `close` has finished. */
  readonly closed: Promise<void>;
}

/** Extra time the drain hook gets beyond the drain timeout before the transport stops anyway, ms. */
export const DRAIN_MARGIN_MS = 5_000;
/** Time clients get to complete the close handshake, ms. */
const CLOSE_GRACE_MS = 2_000;

function defaultValidateResults(): boolean {
  const env = process.env.NODE_ENV;
  return env === 'test' || env === 'development' || process.env.HERMES_VALIDATE_RESULTS === '1';
}

/**
 * Starts the daemon.
 * @throws DaemonLockedError when another live daemon holds the root's lock; Error when listening,
 *   writing the discovery file or `registerHandlers` fails (the lock is released first).
 */
export async function startDaemon(opts: DaemonOptions): Promise<DaemonHandle> {
  const home = new HermesHome(opts.root);
  mkdirSync(home.logsDir, { recursive: true });
  const lock: DaemonLock = await acquireDaemonLock(home.daemonLockFile);
  const log = createLogger({
    file: home.daemonLogFile,
    stderr: opts.logStderr ?? false,
    level: opts.logLevel,
  });
  const token = randomBytes(32).toString('hex');
  log.addSecret(token);
  const epoch = randomBytes(8).toString('hex');
  const startedAt = new Date().toISOString();
  const startedMs = Date.now();
  const drainTimeoutMs = opts.drainTimeoutMs ?? 30_000;
  const handshakeMs = opts.handshakeTimeoutMs ?? 30_000;
  const shutdown = new AbortController();
  const initCallbacks: Array<(conn: Connection) => void> = [];
  let server: GatewayServer | undefined;
  let shuttingDown = false;

  const initialized = (): WsConnection[] =>
    (server?.connections() ?? []).filter((c) => c.initialized && !c.closed);
  const broadcast = (event: WireEvent): void => {
    for (const c of initialized()) c.notify(event);
  };
  const status = async (caller?: Connection): Promise<MethodResult<'gateway.status'>> => {
    const stats = (await opts.stats?.()) ?? { sessions_live: 0 };
    const connections = initialized().filter((c) => c !== caller).length;
    return {
      pid: process.pid,
      port: server?.port ?? 0,
      version: opts.version,
      epoch,
      started_at: startedAt,
      uptime_ms: Date.now() - startedMs,
      sessions_live: stats.sessions_live,
      clients_attached: stats.clients_attached ?? connections,
      connections,
      shutting_down: shuttingDown,
      ...(stats.platforms ? { platforms: stats.platforms } : {}),
    };
  };

  const dispatcher = new Dispatcher({
    log,
    maxFrameBytes: MAX_FRAME_BYTES,
    validateResults: opts.validateResults ?? defaultValidateResults(),
    initialize: makeInitialize({
      server: { name: 'hermes-tui-gateway', version: opts.version },
      epoch,
      profiles: opts.profiles ?? (() => listProfileNames(home.root)),
      activeProfile: opts.activeProfile ?? (() => activeProfileName(home.root)),
      ...(opts.unavailableProfiles ? { unavailableProfiles: opts.unavailableProfiles } : {}),
      onInitialized: (conn) => {
        log.info(`connection ${conn.id} initialized: client ${conn.clientName}, profile ${conn.profile}`);
        for (const cb of initCallbacks) {
          try {
            cb(conn);
          } catch (err) {
            log.error('onConnection callback failed', err);
          }
        }
      },
    }),
  });
  registerBuiltins(dispatcher, status);

  const ctx: DaemonContext = {
    root: home.root,
    home,
    version: opts.version,
    epoch,
    log,
    connections: initialized,
    onConnection: (cb) => initCallbacks.push(cb),
    broadcast,
    shutdownSignal: shutdown.signal,
  };

  try {
    await opts.registerHandlers?.(dispatcher, ctx);
    server = await startGatewayServer({
      token,
      hardMaxPayload: opts.hardMaxPayload ?? 4 * MAX_FRAME_BYTES,
      pingIntervalMs: opts.pingIntervalMs ?? 15_000,
      idleTimeoutMs: opts.idleTimeoutMs ?? 45_000,
      limits: { ...DEFAULT_OUTBOUND_LIMITS, ...opts.outbound },
      log,
      accepting: () => !shuttingDown,
      onConnection: (conn, ws) => {
        ws.on('message', (data, isBinary) => {
          dispatcher.handleFrame(conn, toBuffer(data), isBinary);
        });
        const handshake = setTimeout(() => {
          if (conn.initialized || conn.closed) return;
          log.warn(`connection ${conn.id} sent no initialize within ${handshakeMs} ms: closed`);
          conn.close(CloseCode.HandshakeTimeout, 'initialize not received in time');
        }, handshakeMs);
        handshake.unref();
        ws.once('close', () => clearTimeout(handshake));
      },
    });
    const previous = inspectDiscovery(home.discoveryFile);
    if (previous.state === 'stale')
      log.info(`replacing stale discovery file (pid ${previous.info.pid} is gone)`);
    if (previous.state === 'invalid') log.warn(`replacing unreadable discovery file: ${previous.error}`);
    const info: DiscoveryInfo = {
      ...selfIdentity(),
      host: '127.0.0.1',
      port: server.port,
      token,
      version: opts.version,
      epoch,
      started_at: startedAt,
    };
    writeDiscovery(home.discoveryFile, info);
  } catch (err) {
    log.error('start-up failed', err);
    shuttingDown = true;
    await server?.close(CloseCode.GoingAway, 'start-up failed', 0);
    lock.release();
    await log.close();
    throw err;
  }
  const listening = server;
  log.info(
    `tui-gateway ${opts.version} started: pid ${process.pid}, 127.0.0.1:${listening.port}, epoch ${epoch}, root ${home.root}, drain timeout ${drainTimeoutMs} ms`,
  );
  if (opts.systemdUnitFile !== null) {
    const warning = stopTimeoutWarning(opts.systemdUnitFile ?? unitFilePath(), drainTimeoutMs / 1000);
    if (warning) log.warn(warning);
  }

  let closing: Promise<void> | undefined;
  let markClosed!: () => void;
  const closed = new Promise<void>((r) => (markClosed = r));

  const doClose = async (reason: string): Promise<void> => {
    shuttingDown = true;
    shutdown.abort(new Error(`daemon shutting down: ${reason}`));
    log.info(`shutting down (${reason}); drain timeout ${drainTimeoutMs} ms`);
    broadcast(
      wireEvent('gateway.shutdown', '*', 0, { reason, drain_timeout_ms: drainTimeoutMs }, Date.now()),
    );
    if (opts.drain) {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const overrun = new Promise<'overrun'>((r) => {
        timer = setTimeout(() => r('overrun'), drainTimeoutMs + (opts.drainMarginMs ?? DRAIN_MARGIN_MS));
      });
      try {
        const outcome = await Promise.race([
          opts.drain({ reason, timeoutMs: drainTimeoutMs, deadline: started + drainTimeoutMs }),
          overrun,
        ]);
        if (outcome === 'overrun')
          log.warn(`drain hook still running after ${Date.now() - started} ms: stopping anyway`);
        else log.info(`drained in ${Date.now() - started} ms${outcome ? ` (clean: ${outcome.clean})` : ''}`);
      } catch (err) {
        log.error('drain hook failed', err);
      } finally {
        clearTimeout(timer);
      }
    }
    await listening.close(CloseCode.GoingAway, 'daemon shutting down', CLOSE_GRACE_MS);
    removeDiscovery(home.discoveryFile, epoch);
    lock.release();
    log.info('stopped');
    await log.close();
  };

  return {
    port: listening.port,
    token,
    epoch,
    pid: process.pid,
    startedAt,
    discoveryFile: home.discoveryFile,
    log,
    status,
    connections: initialized,
    close: (reason = 'close()') => {
      closing ??= doClose(reason).finally(markClosed);
      return closing;
    },
    closed,
  };
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
