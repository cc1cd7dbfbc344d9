/**
 * A small client of the daemon for tests and the CLI (`hermes gateway status|start|stop`): reads
 * discovery, opens the WebSocket with the bearer token, runs `initialize`, and offers typed calls,
 * events and server-request handlers. (The TUI has its own client that imports only
 * @hermes/core/protocol.)
 */
import { WebSocket } from 'ws';
import {
  EVENT_NOTIFICATION,
  RpcErrorCode,
  type MethodName,
  type MethodParams,
  type MethodResult,
  type ServerRequestMethod,
  type ServerRequestParams,
  type ServerRequestResult,
  type WireEvent,
} from '@hermes/core/protocol';
import { HermesHome } from '@hermes/core/home/home';
import { inspectDiscovery, type DiscoveryInfo } from '../lifecycle/discovery.js';
import { RpcFailureError } from '../rpc/errors.js';
import { AsyncQueue } from './async-queue.js';

/** Where the daemon is: a root (its discovery file is read) or an explicit port and token. */
export type DaemonTarget = { root: string } | { port: number; token: string; host?: string };

/** Options of `connectDaemon`. */
export interface ConnectOptions {
  /** `client.name` sent in `initialize`. */
  name: string;
  /** `client.version` (default `0.0.0`). */
  version?: string;
  /**
   * `client.instance_id`: a stable id of this client across its connections; its answers are then
   * `by: "client:<instanceId>"` instead of `connection:<id>`.
   */
  instanceId?: string;
  /** Declared capabilities (default `{approvals: false}`). */
  capabilities?: { approvals: boolean; clarify?: boolean };
  /** Profile to start in. */
  profile?: string;
  /** Budget for opening the socket and `initialize`, ms (default 5,000). */
  timeoutMs?: number;
  /** False: do not send `initialize` (tests of the handshake rule). Default true. */
  initialize?: boolean;
  /** Extra upgrade headers (e.g. `Origin` in tests). */
  headers?: Record<string, string>;
  /** Authorization header to send instead of `Bearer <token>`; null sends none (tests). */
  authorization?: string | null;
}

/** Why connecting failed. */
export type ConnectFailure = 'not_running' | 'stale' | 'invalid_discovery' | 'refused' | 'timeout' | 'socket';

/** Connecting to the daemon failed. `status` is the HTTP status of a refused upgrade. */
export class DaemonConnectError extends Error {
  constructor(
    readonly reason: ConnectFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'DaemonConnectError';
  }
}

/**
 * What a server-request handler returns to send no reply at all: it answered another way
 * (`approval.answer` / `clarify.answer`), and the daemon drops the request once it is settled.
 */
export const NO_REPLY: unique symbol = Symbol('no reply');

/** Handles one kind of server request; its return value is sent as the result (`NO_REPLY`: nothing). */
export type ServerRequestHandler<M extends ServerRequestMethod> = (
  params: ServerRequestParams<M>,
) => ServerRequestResult<M> | typeof NO_REPLY | Promise<ServerRequestResult<M> | typeof NO_REPLY>;

type CallArgs<M extends MethodName> =
  undefined extends MethodParams<M>
    ? [params?: MethodParams<M>, opts?: { timeoutMs?: number }]
    : [params: MethodParams<M>, opts?: { timeoutMs?: number }];

/** A connected (and normally initialized) client. */
export interface DaemonClient {
  /** `initialize`'s result (undefined with `initialize: false`). */
  readonly init: MethodResult<'initialize'> | undefined;
  /** The discovery record used, when connected by root. */
  readonly discovery: DiscoveryInfo | undefined;
  /** The raw socket (tests send raw frames through it). */
  readonly socket: WebSocket;
  /** Calls a method. @throws RpcFailureError on an error answer; Error when the socket closes first. */
  call<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<MethodResult<M>>;
  /** Calls any method name with any params, unchecked (tests). */
  callRaw(method: string, params?: unknown, opts?: { timeoutMs?: number }): Promise<unknown>;
  /** Subscribes to events. @returns unsubscribe. */
  onEvent(cb: (event: WireEvent) => void): () => void;
  /** Events from now on, until the socket closes. */
  events(): AsyncIterableIterator<WireEvent>;
  /** Resolves with the first event (from now on) matching `pred`. @throws Error after `timeoutMs`. */
  waitForEvent(pred: (e: WireEvent) => boolean, timeoutMs?: number): Promise<WireEvent>;
  /** Subscribes to every parsed incoming frame (responses, errors, events, requests). */
  onFrame(cb: (frame: Record<string, unknown>) => void): () => void;
  /** Resolves with the first incoming frame (from now on) matching `pred`. */
  waitForFrame(
    pred: (f: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Answers server requests of `method` (unhandled ones get -32601). */
  onServerRequest<M extends ServerRequestMethod>(method: M, handler: ServerRequestHandler<M>): void;
  /** Closes the socket (code 1000) and waits for it to close. */
  close(): Promise<void>;
  /** Resolves with the close code and reason once the socket closed. */
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly isClosed: boolean;
}

function resolveTarget(target: DaemonTarget): {
  host: string;
  port: number;
  token: string;
  info?: DiscoveryInfo;
} {
  if (!('root' in target))
    return { host: target.host ?? '127.0.0.1', port: target.port, token: target.token };
  const file = new HermesHome(target.root).discoveryFile;
  const d = inspectDiscovery(file);
  if (d.state === 'absent')
    throw new DaemonConnectError('not_running', `no daemon running for ${target.root} (no ${file})`);
  if (d.state === 'invalid') throw new DaemonConnectError('invalid_discovery', d.error);
  if (d.state === 'stale') {
    throw new DaemonConnectError(
      'stale',
      `no daemon running for ${target.root}: ${file} is stale (pid ${d.info.pid} is gone)`,
    );
  }
  return { host: d.info.host, port: d.info.port, token: d.info.token, info: d.info };
}

function withTimeout<T>(p: Promise<T>, ms: number | undefined, what: string): Promise<T> {
  if (!ms) return p;
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Connects to the daemon and (by default) initializes.
 * @throws DaemonConnectError (not running, stale or invalid discovery, refused upgrade with its
 *   HTTP status, timeout, socket error); RpcFailureError when `initialize` is refused.
 */
export async function connectDaemon(target: DaemonTarget, opts: ConnectOptions): Promise<DaemonClient> {
  const { host, port, token, info } = resolveTarget(target);
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.authorization !== null) headers.Authorization = opts.authorization ?? `Bearer ${token}`;
  const socket = new WebSocket(`ws://${host}:${port}/`, { headers, perMessageDeflate: false, maxPayload: 0 });

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new DaemonConnectError('timeout', `connecting to ${host}:${port} took over ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('open', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        socket.terminate();
        reject(
          new DaemonConnectError(
            'refused',
            `upgrade refused: ${res.statusCode} ${body.trim()}`,
            res.statusCode,
          ),
        );
      });
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(new DaemonConnectError('socket', `cannot connect to ${host}:${port}: ${err.message}`));
    });
  });
  socket.on('error', () => {
    /* surfaced through 'close' */
  });

  let nextId = 1;
  let isClosed = false;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const eventCbs = new Set<(e: WireEvent) => void>();
  const frameCbs = new Set<(f: Record<string, unknown>) => void>();
  const queues = new Set<AsyncQueue<WireEvent>>();
  const handlers = new Map<string, (params: never) => unknown>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      isClosed = true;
      const err = new Error(`connection closed (${code}${reason.length ? ` ${reason.toString()}` : ''})`);
      for (const p of pending.values()) p.reject(err);
      pending.clear();
      for (const q of queues) q.end();
      resolve({ code, reason: reason.toString() });
    });
  });

  const sendJson = (obj: unknown): void => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(obj));
  };
  const answerRequest = async (id: unknown, method: string, params: unknown): Promise<void> => {
    const handler = handlers.get(method);
    if (!handler) {
      sendJson({
        jsonrpc: '2.0',
        id,
        error: { code: RpcErrorCode.MethodNotFound, message: `no handler for ${method}` },
      });
      return;
    }
    try {
      const result = await handler(params as never);
      if (result !== NO_REPLY) sendJson({ jsonrpc: '2.0', id, result });
    } catch (err) {
      sendJson({
        jsonrpc: '2.0',
        id,
        error: { code: RpcErrorCode.InternalError, message: (err as Error).message },
      });
    }
  };

  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(data.toString()) as Record<string, unknown>;
    } catch {
      return;
    }
    if (msg === null || typeof msg !== 'object') return;
    for (const cb of frameCbs) cb(msg);
    if (msg.method === EVENT_NOTIFICATION && !('id' in msg)) {
      const event = msg.params as WireEvent;
      for (const cb of eventCbs) cb(event);
      for (const q of queues) q.push(event);
      return;
    }
    if (typeof msg.method === 'string' && 'id' in msg) {
      void answerRequest(msg.id, msg.method, msg.params);
      return;
    }
    if (typeof msg.id === 'number') {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      const error = msg.error as { code: number; message: string; data?: unknown } | undefined;
      if (error) p.reject(new RpcFailureError(error.code, error.message, error.data));
      else p.resolve(msg.result);
    }
  });

  const callRaw = (method: string, params?: unknown, o?: { timeoutMs?: number }): Promise<unknown> => {
    if (isClosed) return Promise.reject(new Error(`connection closed; cannot call ${method}`));
    const id = nextId++;
    const p = new Promise<unknown>((resolve, reject) => pending.set(id, { resolve, reject }));
    socket.send(
      JSON.stringify(
        params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params },
      ),
    );
    return withTimeout(p, o?.timeoutMs, `${method}`).finally(() => pending.delete(id));
  };
  const waitFor = <T>(
    subscribe: (cb: (x: T) => void) => () => void,
    pred: (x: T) => boolean,
    ms: number,
    what: string,
  ): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`no ${what} matched within ${ms} ms`));
      }, ms);
      const off = subscribe((x) => {
        if (!pred(x)) return;
        clearTimeout(timer);
        off();
        resolve(x);
      });
    });

  const client: DaemonClient = {
    init: undefined,
    discovery: info,
    socket,
    call: (method, ...args) => callRaw(method, args[0], args[1]) as never,
    callRaw,
    onEvent: (cb) => {
      eventCbs.add(cb);
      return () => eventCbs.delete(cb);
    },
    events: () => {
      const q = new AsyncQueue<WireEvent>();
      if (isClosed) q.end();
      else queues.add(q);
      return q;
    },
    waitForEvent: (pred, ms = 10_000) => waitFor(client.onEvent, pred, ms, 'event'),
    onFrame: (cb) => {
      frameCbs.add(cb);
      return () => frameCbs.delete(cb);
    },
    waitForFrame: (pred, ms = 10_000) => waitFor(client.onFrame, pred, ms, 'frame'),
    onServerRequest: (method, handler) => {
      handlers.set(method, handler as (params: never) => unknown);
    },
    close: async () => {
      if (!isClosed) socket.close(1000, 'client closing');
      await closed;
    },
    closed,
    get isClosed() {
      return isClosed;
    },
  };

  if (opts.initialize !== false) {
    try {
      const init = await client.call(
        'initialize',
        {
          client: {
            name: opts.name,
            version: opts.version ?? '0.0.0',
            ...(opts.instanceId ? { instance_id: opts.instanceId } : {}),
          },
          capabilities: opts.capabilities ?? { approvals: false },
          ...(opts.profile ? { profile: opts.profile } : {}),
        },
        { timeoutMs },
      );
      (client as { init: MethodResult<'initialize'> | undefined }).init = init;
    } catch (err) {
      socket.terminate();
      throw err;
    }
  }
  return client;
}
