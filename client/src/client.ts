/**
 * The one client of the daemon: JSON-RPC 2.0 over one WebSocket, the `initialize` handshake,
 * typed requests, event notifications, server requests (approvals, clarify) answered by handlers
 * keyed by method, and — with `reconnect` — client pings and reconnection with capped exponential
 * backoff and jitter followed by a re-attach of every attached session (`since_seq`, or a full
 * snapshot after a daemon restart: a new epoch).
 *
 * Events of a session attached with `attach()` are delivered in seq order without duplicates, and
 * never before the attach result they follow: events that arrive while an attach is in flight are
 * held back and flushed right after it. Listeners and event iterators: listeners.ts.
 */
import type WebSocket from 'ws';
import type {
  EventType,
  MethodName,
  MethodParams,
  MethodResult,
  ServerRequestMethod,
  WireEvent,
} from '@hermes/core/protocol';
import { Attachments, isWireEvent, type Tracked } from './attachments.js';
import { backoffDelay } from './backoff.js';
import { CallTimeoutError, NotConnectedError, RpcCallError } from './errors.js';
import { ClientListeners } from './listeners.js';
import { waitFor, type DaemonClientOptions } from './options.js';
import { RpcSocket, type CloseInfo } from './rpc-socket.js';
import { ServerRequestHandlers } from './server-requests.js';
import type {
  AttachResult,
  ClientEventName,
  ClientEvents,
  ConnectionState,
  DaemonClientLike,
  EventOf,
  InitializeResult,
  RequestArgs,
  RequestOptions,
  ServerRequestHandler,
  StateInfo,
} from './types.js';

/** Name of the notification that carries events (`EVENT_NOTIFICATION` in the protocol). */
export const EVENT_METHOD = 'event';
/** Largest frame a reconnecting client accepts (a replay can be several MiB), bytes. */
const MAX_PAYLOAD = 64 * 1024 * 1024;

export type { DaemonClientOptions };

/** A JSON-RPC WebSocket client of the daemon. */
export class DaemonClient implements DaemonClientLike {
  private sock: RpcSocket | null = null;
  /** The latest socket, kept after it closed (`socket` of a closed client). */
  private lastSock: RpcSocket | null = null;
  /** `ready` once `initialize` succeeded on the current socket (or was skipped). */
  private phase: 'idle' | 'handshake' | 'ready' = 'idle';
  private readonly sessions = new Attachments(
    (ev) => this.deliver(ev),
    (result, info) => this.emit('attach', result, info),
  );
  private readonly listeners = new ClientListeners();
  private readonly handlers = new ServerRequestHandlers();
  private pingTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryWake: (() => void) | null = null;
  private _closed = false;
  private closeInfo: CloseInfo = { code: 1000, reason: 'client closing' };
  private resolveClosed!: (info: CloseInfo) => void;
  private reconnecting = false;
  /** Counts `connect` calls; a loop whose number is not the latest gives up. */
  private connectGen = 0;
  private profile: string | undefined;
  private _state: ConnectionState = 'disconnected';
  private _server: InitializeResult | null = null;

  /** This client's instance id (see `DaemonClientOptions.instanceId`). */
  readonly instanceId: string | undefined;
  /** Resolves with the last socket's close code and reason once the client is closed for good. */
  readonly closed: Promise<CloseInfo>;

  constructor(private readonly opts: DaemonClientOptions) {
    this.profile = opts.profile;
    this.instanceId = opts.instanceId;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  /** Current connection state. */
  get state(): ConnectionState {
    return this._state;
  }

  /** Result of the latest successful handshake. */
  get server(): InitializeResult | null {
    return this._server;
  }

  /** True once the client is closed for good (`close()`, or a drop without `reconnect`). */
  get isClosed(): boolean {
    return this._closed;
  }

  /**
   * The current (or, once closed, the last) WebSocket: tests send raw frames through it, pause or
   * terminate it. @throws NotConnectedError before the first connect.
   */
  get socket(): WebSocket {
    if (!this.lastSock) throw new NotConnectedError('no socket yet');
    return this.lastSock.ws;
  }

  /** Last seq delivered for a session attached with `attach()` (-1 before its first attach result). */
  lastSeq(sessionId: string): number | undefined {
    return this.sessions.get(sessionId)?.lastSeq;
  }

  /** Subscribes to a client event; returns the unsubscribe function. */
  on<E extends ClientEventName>(event: E, listener: ClientEvents[E]): () => void {
    return this.listeners.on(event, listener);
  }

  /** Subscribes to every event (`on('event', …)`); returns the unsubscribe function. */
  onEvent(listener: (event: WireEvent) => void): () => void {
    return this.on('event', listener);
  }

  /** Subscribes to the events of one type; returns the unsubscribe function. */
  onEventType<T extends EventType>(type: T, listener: (event: EventOf<T>) => void): () => void {
    return this.on('event', (ev) => {
      if (ev.type === type) listener(ev as EventOf<T>);
    });
  }

  /** Events from now on, until the client closes for good. */
  events(): AsyncIterableIterator<WireEvent> {
    return this.listeners.iterator(this._closed);
  }

  /** Resolves with the first event (from now on) matching `pred`. @throws Error after `timeoutMs`. */
  waitForEvent(pred: (e: WireEvent) => boolean, timeoutMs = 10_000): Promise<WireEvent> {
    return waitFor((cb) => this.onEvent(cb), pred, timeoutMs, 'event');
  }

  /** Subscribes to every parsed incoming message (answers, errors, events, requests). */
  onFrame(listener: (frame: Record<string, unknown>) => void): () => void {
    return this.listeners.onFrame(listener);
  }

  /** Resolves with the first incoming message (from now on) matching `pred`. @throws Error after `timeoutMs`. */
  waitForFrame(
    pred: (f: Record<string, unknown>) => boolean,
    timeoutMs = 10_000,
  ): Promise<Record<string, unknown>> {
    return waitFor((cb) => this.onFrame(cb), pred, timeoutMs, 'frame');
  }

  /** Sets the handler of one server-request method (replacing any earlier one); returns its removal. */
  onServerRequest<M extends ServerRequestMethod>(method: M, handler: ServerRequestHandler<M>): () => void {
    return this.handlers.set(method, handler);
  }

  /**
   * Opens the connection and performs `initialize` (unless `initialize: false`).
   * @param opts.retry keep retrying with backoff until it works (or `close()`); otherwise one try.
   * @throws DaemonConnectError (refused, timeout, socket), RpcCallError (`initialize` refused),
   *   NotConnectedError (closed meanwhile), or what the endpoint function throws.
   */
  async connect(opts: { retry?: boolean } = {}): Promise<InitializeResult> {
    if (this._closed) throw new NotConnectedError('client is closed');
    // a newer connect (or switchProfile) supersedes this one: at most one handshake loop runs
    const gen = ++this.connectGen;
    const superseded = (): boolean => gen !== this.connectGen;
    this.setState('connecting', {});
    let attempt = 0;
    for (;;) {
      try {
        const init = await this.openOnce();
        if (superseded()) throw new NotConnectedError('superseded by a newer connect');
        this.afterHandshake(init, false);
        return init as InitializeResult;
      } catch (err) {
        if (superseded()) throw err;
        // the daemon answered (an unknown profile, a refused handshake): trying again changes nothing
        if (!opts.retry || this._closed || err instanceof RpcCallError) {
          if (!this._closed) this.setState('disconnected', { error: err as Error });
          throw err;
        }
        const delay = backoffDelay(attempt++, this.opts.backoff, this.opts.random);
        this.setState('connecting', { attempt, nextDelayMs: delay, error: err as Error });
        await this.sleep(delay);
        if (this._closed) throw new NotConnectedError('client is closed');
        if (superseded()) throw new NotConnectedError('superseded by a newer connect');
      }
    }
  }

  /**
   * Sends `initialize` on a connection opened with `initialize: false` and records its result.
   * @throws RpcCallError when the daemon refuses it.
   */
  async initialize(): Promise<InitializeResult> {
    const sock = this.sock;
    if (!sock) throw new NotConnectedError();
    const init = (await sock.request(
      'initialize',
      this.initParams(),
      this.connectTimeout(),
    )) as InitializeResult;
    this._server = init;
    this.profile = init.profile;
    return init;
  }

  /**
   * Sends a request and resolves with its typed result.
   * @throws RpcCallError (an error answer), NotConnectedError, CallTimeoutError.
   */
  request<M extends MethodName>(method: M, ...args: RequestArgs<M>): Promise<MethodResult<M>> {
    const [params, opts] = args as [MethodParams<M> | undefined, RequestOptions | undefined];
    return this.requestRaw(method, params, opts) as Promise<MethodResult<M>>;
  }

  /** Sends any method with any params, unchecked (tests of the daemon's error answers). */
  requestRaw(method: string, params?: unknown, opts: RequestOptions = {}): Promise<unknown> {
    if (!this.sock || this.phase !== 'ready') {
      return Promise.reject(
        new NotConnectedError(this._closed ? `connection closed; cannot call ${method}` : undefined),
      );
    }
    const timeout = opts.timeoutMs ?? this.opts.callTimeoutMs ?? (this.opts.reconnect ? 60_000 : 0);
    return this.sock.request(method, params, timeout);
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
      result = await this.request('session.attach', {
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
    if (this.phase === 'ready') await this.request('session.detach', { session_id: sessionId });
  }

  /** Reconnects in another profile; attached sessions are dropped (they belong to the old profile). */
  async switchProfile(profile: string): Promise<InitializeResult> {
    this.profile = profile;
    this.sessions.clear();
    this.dropSocket();
    return this.connect({ retry: true });
  }

  /**
   * Closes for good: no reconnect; pending requests are rejected with NotConnectedError. Resolves
   * once the socket closed (close code 1000).
   */
  close(): Promise<void> {
    if (!this._closed) {
      this._closed = true;
      this.retryWake?.();
      this.stopPing();
      const sock = this.sock;
      this.sock = null;
      this.phase = 'idle';
      if (sock && !sock.closed) {
        sock.close();
        // a dead peer never answers the close handshake
        setTimeout(() => sock.terminate(), 2_000).unref();
      } else {
        this.finish(sock?.closed ?? this.closeInfo);
      }
      this.setState('disconnected', {});
    }
    return this.closed.then(() => {});
  }

  // ── connection ────────────────────────────────────────────────────────────

  private connectTimeout(): number {
    return this.opts.connectTimeoutMs ?? 5_000;
  }

  private initParams(): MethodParams<'initialize'> {
    return {
      client: {
        name: this.opts.name,
        version: this.opts.version ?? '0.0.0',
        ...(this.instanceId ? { instance_id: this.instanceId } : {}),
      },
      capabilities: this.opts.capabilities ?? { approvals: false },
      ...(this.profile ? { profile: this.profile } : {}),
    };
  }

  private async openOnce(): Promise<InitializeResult | null> {
    const ep = typeof this.opts.endpoint === 'function' ? await this.opts.endpoint() : this.opts.endpoint;
    if (this._closed) throw new NotConnectedError('client is closed');
    const headers: Record<string, string> = { ...this.opts.headers };
    if (this.opts.authorization !== null)
      headers.Authorization = this.opts.authorization ?? `Bearer ${ep.token}`;
    const timeout = this.connectTimeout();
    const sock: RpcSocket = new RpcSocket(
      {
        url: ep.url,
        headers,
        handshakeTimeoutMs: timeout,
        maxPayload: this.opts.maxPayload ?? (this.opts.reconnect ? MAX_PAYLOAD : 0),
      },
      {
        onFrame: (frame) => {
          if (sock === this.sock) this.listeners.frame(frame);
        },
        onNotification: (method, params) => {
          if (sock === this.sock && method === EVENT_METHOD && isWireEvent(params))
            this.sessions.deliverEvent(params);
        },
        onRequest: (id, method, params, reply) => {
          if (sock === this.sock) this.handlers.dispatch(id, method, params, reply);
        },
        onClose: (info) => this.onSocketClose(sock, info),
      },
    );
    this.sock = sock;
    this.lastSock = sock;
    this.phase = 'handshake';
    try {
      await sock.opened();
      if (this.opts.initialize === false) return null;
      const init = (await sock.request('initialize', this.initParams(), timeout)) as InitializeResult;
      if (sock !== this.sock) throw new NotConnectedError('connection replaced');
      return init;
    } catch (err) {
      if (sock === this.sock) this.dropSocket();
      else sock.terminate(); // replaced meanwhile: never leave it open beside the new one
      throw err;
    }
  }

  private afterHandshake(init: InitializeResult | null, reconnect: boolean): void {
    const epochChanged = init !== null && this._server !== null && this._server.epoch !== init.epoch;
    if (init) {
      this._server = init;
      this.profile = init.profile;
    }
    this.phase = 'ready';
    this.setState('connected', {});
    this.startPing();
    if (init) this.emit('connected', init, { reconnect, epochChanged });
    if (reconnect) {
      for (const [sessionId, tracked] of this.sessions.entries())
        void this.reattach(sessionId, tracked, epochChanged);
    }
  }

  private onSocketClose(sock: RpcSocket, info: CloseInfo): void {
    if (this._closed && sock === this.lastSock) this.finish(info);
    if (sock !== this.sock) return;
    const wasReady = this.phase === 'ready';
    this.sock = null;
    this.phase = 'idle';
    this.stopPing();
    if (!wasReady || this._closed) return;
    if (this.opts.reconnect) {
      void this.reconnectLoop();
    } else {
      this._closed = true;
      this.setState('disconnected', {});
      this.finish(info);
    }
  }

  /** Marks the client closed for good: event iterators end, `closed` resolves. */
  private finish(info: CloseInfo): void {
    this.closeInfo = info;
    this.listeners.endIterators();
    this.resolveClosed(info);
  }

  /** Closes the current socket without triggering a reconnect; its pending requests are rejected. */
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
      while (!this._closed) {
        const delay = backoffDelay(attempt++, this.opts.backoff, this.opts.random);
        this.setState('reconnecting', { attempt, nextDelayMs: delay, ...(error ? { error } : {}) });
        await this.sleep(delay);
        if (this._closed || this.phase !== 'idle') return;
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
    const every = this.opts.pingIntervalMs ?? (this.opts.reconnect ? 15_000 : 0);
    if (every <= 0) return;
    const sock = this.sock;
    this.pingTimer = setInterval(() => {
      if (!sock || sock !== this.sock || this.phase !== 'ready') return;
      sock.request('ping', undefined, this.opts.pingTimeoutMs ?? 10_000).catch((err: unknown) => {
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

  private deliver(ev: WireEvent): void {
    this.listeners.deliver(ev);
  }

  private emit<E extends ClientEventName>(event: E, ...args: Parameters<ClientEvents[E]>): void {
    this.listeners.emit(event, ...args);
  }

  private async reattach(sessionId: string, tracked: Tracked, epochChanged: boolean): Promise<void> {
    const sinceSeq = this.sessions.beginReattach(tracked, epochChanged);
    try {
      const result = await this.request('session.attach', {
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
}
