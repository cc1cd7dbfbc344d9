/**
 * The TUI's connection to the tui-gateway daemon (DESIGN §5): JSON-RPC 2.0 over one WebSocket,
 * `initialize` handshake, typed calls, event notifications, server requests (approvals, clarify),
 * client pings, and reconnection with capped exponential backoff and jitter followed by a
 * re-attach of every attached session (`since_seq`, or a full snapshot after a daemon restart).
 *
 * Events of a session are delivered in seq order without duplicates, and never before the attach
 * result they follow: events that arrive while an attach is in flight are held back and flushed
 * right after it.
 */
import { randomBytes } from 'node:crypto';
import type {
  MethodName,
  MethodParams,
  MethodResult,
  ServerRequestMethod,
  ServerRequestParams,
} from '@hermes/core/protocol';
import { Attachments, isWireEvent, type Tracked } from './attachments.js';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import type { Endpoint } from './discovery.js';
import { CallTimeoutError, DropServerRequest, NotConnectedError } from './errors.js';
import { RpcSocket, type ReplyBody } from './rpc-socket.js';
import type {
  AttachResult,
  CallOptions,
  ClientEventName,
  ClientEvents,
  ConnectionState,
  GatewayClientLike,
  InitializeResult,
  ServerRequestHandler,
  StateInfo,
} from './types.js';

/** Name of the notification that carries events (`EVENT_NOTIFICATION` in the protocol). */
export const EVENT_METHOD = 'event';
/** Server requests this client understands. */
const SERVER_METHODS: readonly string[] = ['approval.request', 'clarify.request'];
/** Largest frame accepted from the daemon (a replay can be several MiB). */
const MAX_PAYLOAD = 64 * 1024 * 1024;

/** Options of a `GatewayClient`. */
export interface GatewayClientOptions {
  /** Where to connect; a function is called before every attempt (the daemon may have restarted on another port). */
  endpoint: Endpoint | (() => Promise<Endpoint>);
  /** This client's version, sent in `initialize`. */
  version: string;
  /** Client name sent in `initialize` (default `hermes-tui`). */
  clientName?: string;
  /** Profile to start in; default: the daemon's active profile. */
  profile?: string;
  /**
   * This client's instance id, sent at every `initialize` (default: a random one per client):
   * its answers are `by: "client:<id>"` across reconnects and profile switches.
   */
  instanceId?: string;
  /** Capabilities declared in `initialize` (default: approvals and clarify). */
  capabilities?: { approvals: boolean; clarify?: boolean };
  /** Interval of client pings, ms (default 15 000; 0 disables). */
  pingIntervalMs?: number;
  /** A ping unanswered this long drops the connection, ms (default 10 000). */
  pingTimeoutMs?: number;
  /** Default timeout of calls, ms (default 60 000; 0: none). */
  callTimeoutMs?: number;
  /** Timeout of the WebSocket opening handshake, ms (default 5 000). */
  connectTimeoutMs?: number;
  /** Reconnect backoff. */
  backoff?: BackoffOptions;
  /** Random source for jitter (tests). */
  random?: () => number;
}

type Listeners = { [E in ClientEventName]: Set<ClientEvents[E]> };

/** A JSON-RPC WebSocket client of the tui-gateway daemon. */
export class GatewayClient implements GatewayClientLike {
  private sock: RpcSocket | null = null;
  /** `ready` once `initialize` succeeded on the current socket. */
  private phase: 'idle' | 'handshake' | 'ready' = 'idle';
  private readonly sessions = new Attachments(
    (ev) => this.emit('event', ev),
    (result, info) => this.emit('attach', result, info),
  );
  private readonly listeners: Listeners = {
    state: new Set(),
    event: new Set(),
    attach: new Set(),
    attachError: new Set(),
    connected: new Set(),
  };
  private handler: ServerRequestHandler | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryWake: (() => void) | null = null;
  private closed = false;
  private reconnecting = false;
  private profile: string | undefined;
  private _state: ConnectionState = 'disconnected';
  private _server: InitializeResult | null = null;

  /** This client's instance id (see `GatewayClientOptions.instanceId`). */
  readonly instanceId: string;

  constructor(private readonly opts: GatewayClientOptions) {
    this.profile = opts.profile;
    this.instanceId = opts.instanceId ?? `tui-${randomBytes(8).toString('hex')}`;
  }

  /** Current connection state. */
  get state(): ConnectionState {
    return this._state;
  }

  /** Result of the latest successful handshake. */
  get server(): InitializeResult | null {
    return this._server;
  }

  /** Last seq delivered for an attached session (-1 before its first attach result). */
  lastSeq(sessionId: string): number | undefined {
    return this.sessions.get(sessionId)?.lastSeq;
  }

  /** Subscribes to a client event; returns the unsubscribe function. */
  on<E extends ClientEventName>(event: E, listener: ClientEvents[E]): () => void {
    const set = this.listeners[event] as Set<ClientEvents[E]>;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Sets the handler of server requests. */
  setServerRequestHandler(handler: ServerRequestHandler | null): void {
    this.handler = handler;
  }

  /**
   * Opens the connection and performs `initialize`.
   * @param opts.retry keep retrying with backoff until it works (or `close()`); otherwise one try.
   */
  async connect(opts: { retry?: boolean } = {}): Promise<InitializeResult> {
    if (this.closed) throw new NotConnectedError('client is closed');
    this.setState('connecting', {});
    let attempt = 0;
    for (;;) {
      try {
        const init = await this.openOnce();
        this.afterHandshake(init, false);
        return init;
      } catch (err) {
        if (!opts.retry || this.closed) {
          if (!this.closed) this.setState('disconnected', { error: err as Error });
          throw err;
        }
        const delay = backoffDelay(attempt++, this.opts.backoff, this.opts.random);
        this.setState('connecting', { attempt, nextDelayMs: delay, error: err as Error });
        await this.sleep(delay);
        if (this.closed) throw new NotConnectedError('client is closed');
      }
    }
  }

  /** Calls a method; rejects with `RpcCallError`, `NotConnectedError` or `CallTimeoutError`. */
  call<M extends MethodName>(
    method: M,
    params: MethodParams<M>,
    opts: CallOptions = {},
  ): Promise<MethodResult<M>> {
    if (!this.sock || this.phase !== 'ready') return Promise.reject(new NotConnectedError());
    const timeout = opts.timeoutMs ?? this.opts.callTimeoutMs ?? 60_000;
    return this.sock.request(method, params, timeout) as Promise<MethodResult<M>>;
  }

  /**
   * Attaches to a session with a full snapshot and keeps it attached: after a reconnect it is
   * re-attached by itself. The result is also delivered to `attach` listeners, before any event
   * of the session that arrived meanwhile.
   */
  async attach(sessionId: string, opts: { historyLimit?: number } = {}): Promise<AttachResult> {
    const tracked = this.sessions.track(sessionId, opts.historyLimit);
    let result: AttachResult;
    try {
      result = await this.call('session.attach', {
        session_id: sessionId,
        ...(opts.historyLimit !== undefined ? { history_limit: opts.historyLimit } : {}),
      });
    } catch (err) {
      this.sessions.forget(sessionId, tracked);
      throw err;
    }
    if (this.sessions.isCurrent(sessionId, tracked))
      this.sessions.deliverAttach(sessionId, tracked, result, 'attach');
    return result;
  }

  /** Detaches from a session (best effort when disconnected) and stops tracking it. */
  async detach(sessionId: string): Promise<void> {
    this.sessions.forget(sessionId);
    if (this.phase === 'ready') await this.call('session.detach', { session_id: sessionId });
  }

  /** Reconnects in another profile; attached sessions are dropped (they belong to the old profile). */
  async switchProfile(profile: string): Promise<InitializeResult> {
    this.profile = profile;
    this.sessions.clear();
    this.dropSocket();
    return this.connect({ retry: true });
  }

  /** Closes for good: no reconnect, pending calls are rejected. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.retryWake?.();
    this.dropSocket();
    this.setState('disconnected', {});
  }

  // ── connection ────────────────────────────────────────────────────────────

  private async openOnce(): Promise<InitializeResult> {
    const ep = typeof this.opts.endpoint === 'function' ? await this.opts.endpoint() : this.opts.endpoint;
    if (this.closed) throw new NotConnectedError('client is closed');
    const timeout = this.opts.connectTimeoutMs ?? 5_000;
    const sock: RpcSocket = new RpcSocket(
      { url: ep.url, token: ep.token, handshakeTimeoutMs: timeout, maxPayload: MAX_PAYLOAD },
      {
        onNotification: (method, params) => {
          if (sock === this.sock && method === EVENT_METHOD && isWireEvent(params))
            this.sessions.deliverEvent(params);
        },
        onRequest: (id, method, params, reply) => {
          if (sock === this.sock) this.onServerRequest(id, method, params, reply);
        },
        onClose: () => this.onSocketClose(sock),
      },
    );
    this.sock = sock;
    this.phase = 'handshake';
    const params: MethodParams<'initialize'> = {
      client: {
        name: this.opts.clientName ?? 'hermes-tui',
        version: this.opts.version,
        instance_id: this.instanceId,
      },
      capabilities: this.opts.capabilities ?? { approvals: true, clarify: true },
      ...(this.profile ? { profile: this.profile } : {}),
    };
    try {
      await sock.opened();
      const init = (await sock.request('initialize', params, timeout)) as InitializeResult;
      if (sock !== this.sock) throw new NotConnectedError('connection replaced');
      return init;
    } catch (err) {
      if (sock === this.sock) this.dropSocket();
      throw err;
    }
  }

  private afterHandshake(init: InitializeResult, reconnect: boolean): void {
    const epochChanged = this._server !== null && this._server.epoch !== init.epoch;
    this._server = init;
    this.profile = init.profile;
    this.phase = 'ready';
    this.setState('connected', {});
    this.startPing();
    this.emit('connected', init, { reconnect, epochChanged });
    if (reconnect) {
      for (const [sessionId, tracked] of this.sessions.entries())
        void this.reattach(sessionId, tracked, epochChanged);
    }
  }

  private onSocketClose(sock: RpcSocket): void {
    if (sock !== this.sock) return;
    const wasReady = this.phase === 'ready';
    this.sock = null;
    this.phase = 'idle';
    this.stopPing();
    if (wasReady && !this.closed) void this.reconnectLoop();
  }

  /** Closes the current socket without triggering a reconnect; its pending calls are rejected. */
  private dropSocket(): void {
    const sock = this.sock;
    this.sock = null;
    this.phase = 'idle';
    this.stopPing();
    sock?.terminate();
  }

  private async reconnectLoop(): Promise<void> {
    if (this.reconnecting) return;
    this.reconnecting = true;
    let attempt = 0;
    let error: Error | undefined;
    try {
      while (!this.closed) {
        const delay = backoffDelay(attempt++, this.opts.backoff, this.opts.random);
        this.setState('reconnecting', { attempt, nextDelayMs: delay, ...(error ? { error } : {}) });
        await this.sleep(delay);
        if (this.closed || this.phase !== 'idle') return;
        try {
          const init = await this.openOnce();
          this.afterHandshake(init, true);
          return;
        } catch (err) {
          error = err as Error;
        }
      }
    } finally {
      this.reconnecting = false;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        if (this.retryTimer) clearTimeout(this.retryTimer);
        this.retryTimer = null;
        this.retryWake = null;
        resolve();
      };
      this.retryWake = done;
      this.retryTimer = setTimeout(done, ms);
    });
  }

  private startPing(): void {
    this.stopPing();
    const every = this.opts.pingIntervalMs ?? 15_000;
    if (every <= 0) return;
    const sock = this.sock;
    this.pingTimer = setInterval(() => {
      if (!sock || sock !== this.sock || this.phase !== 'ready') return;
      sock.request('ping', {}, this.opts.pingTimeoutMs ?? 10_000).catch((err: unknown) => {
        // a dead daemon or network: drop the socket; its close starts the reconnect
        if (err instanceof CallTimeoutError && sock === this.sock) sock.terminate();
      });
    }, every);
    this.pingTimer.unref();
  }

  private stopPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private setState(state: ConnectionState, info: StateInfo): void {
    this._state = state;
    this.emit('state', state, info);
  }

  private emit<E extends ClientEventName>(event: E, ...args: Parameters<ClientEvents[E]>): void {
    for (const l of [...this.listeners[event]]) {
      try {
        (l as (...a: Parameters<ClientEvents[E]>) => void)(...args);
      } catch {
        // a failing listener must not break the connection
      }
    }
  }

  private async reattach(sessionId: string, tracked: Tracked, epochChanged: boolean): Promise<void> {
    const sinceSeq = this.sessions.beginReattach(tracked, epochChanged);
    try {
      const result = await this.call('session.attach', {
        session_id: sessionId,
        ...(sinceSeq !== undefined ? { since_seq: sinceSeq } : {}),
        ...(tracked.historyLimit !== undefined ? { history_limit: tracked.historyLimit } : {}),
      });
      if (this.sessions.isCurrent(sessionId, tracked)) {
        this.sessions.deliverAttach(sessionId, tracked, result, 'reattach');
      }
    } catch (err) {
      if (err instanceof NotConnectedError) return; // the next reconnect re-attaches
      this.sessions.forget(sessionId, tracked);
      this.emit('attachError', err as Error, { sessionId });
    }
  }

  // ── server requests ───────────────────────────────────────────────────────

  private onServerRequest(
    id: string | number,
    method: string,
    params: unknown,
    reply: (b: ReplyBody) => void,
  ): void {
    const handler = this.handler;
    if (!handler || !SERVER_METHODS.includes(method)) {
      reply({ error: { code: -32601, message: `method not supported by this client: ${method}` } });
      return;
    }
    const m = method as ServerRequestMethod;
    Promise.resolve()
      .then(() => handler(m, params as ServerRequestParams<typeof m>, { rpcId: id }))
      .then(
        // When the socket that carried the request is gone, `reply` drops the answer: the
        // daemon re-sends still-open requests to the connection that re-attaches.
        (result) => reply({ result }),
        (err: unknown) => {
          if (err instanceof DropServerRequest) return;
          reply({ error: { code: -32603, message: err instanceof Error ? err.message : String(err) } });
        },
      );
  }
}
