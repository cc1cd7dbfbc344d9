/**
 * Types of the daemon client and its users (the TUI's session controller, `hermes chat`, tests,
 * fakes). Only types come from `@hermes/core/protocol`, so nothing here loads zod at run time.
 */
import type {
  EventType,
  MethodName,
  MethodParams,
  MethodResult,
  ServerRequestMethod,
  ServerRequestParams,
  ServerRequestResult,
  WireEvent,
} from '@hermes/core/protocol';
import type { NO_REPLY } from './server-requests.js';

/** Where the client is in its connection life. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';

/** Result of `initialize`. */
export type InitializeResult = MethodResult<'initialize'>;

/** Result of `session.attach`: a full snapshot or a replay of missed events. */
export type AttachResult = MethodResult<'session.attach'>;

/** Why an attach result is delivered. */
export type AttachReason = 'attach' | 'reattach';

/** The wire event of one type (the whole `WireEvent` while its payload is not yet typed per type). */
export type EventOf<T extends EventType> = [Extract<WireEvent, { type: T }>] extends [never]
  ? WireEvent & { type: T }
  : Extract<WireEvent, { type: T }>;

/** Extra information with a state change. */
export interface StateInfo {
  /** Reconnect attempt number (1-based) while reconnecting. */
  attempt?: number;
  /** Delay before the next attempt, ms. */
  nextDelayMs?: number;
  /** What made the connection fail or drop. */
  error?: Error;
}

/** Events a client emits to its listeners. */
export interface ClientEvents {
  /** The connection state changed. */
  state: (state: ConnectionState, info: StateInfo) => void;
  /**
   * A live event. Events of a session attached with `attach()` are deduplicated by seq and
   * delivered after its attach result; other sessions' events pass as they arrive.
   */
  event: (event: WireEvent) => void;
  /** An attach result; buffered live events of that session follow right after. */
  attach: (result: AttachResult, info: { sessionId: string; reason: AttachReason }) => void;
  /** A re-attach after a reconnect failed (e.g. the session is gone). */
  attachError: (error: Error, info: { sessionId: string }) => void;
  /** The handshake finished; `epochChanged` means the daemon restarted in between. */
  connected: (init: InitializeResult, info: { reconnect: boolean; epochChanged: boolean }) => void;
}

/** Name of a client event. */
export type ClientEventName = keyof ClientEvents;

/** Context given to a server-request handler. */
export interface ServerRequestContext {
  /** The JSON-RPC id of the request (`srq-…`). */
  rpcId: string | number;
}

/**
 * Answers one kind of server request. The resolved value is sent back as the JSON-RPC result;
 * `NO_REPLY` (or throwing `DropServerRequest`) sends nothing — it was answered another way
 * (`approval.answer`) or resolved elsewhere; any other error is sent as a JSON-RPC error (-32603).
 */
export type ServerRequestHandler<M extends ServerRequestMethod> = (
  params: ServerRequestParams<M>,
  ctx: ServerRequestContext,
) => ServerRequestResult<M> | typeof NO_REPLY | Promise<ServerRequestResult<M> | typeof NO_REPLY>;

/** Options of one request. */
export interface RequestOptions {
  /** Reject with `CallTimeoutError` after this many ms (0: never; default: the client's). */
  timeoutMs?: number;
}

/** Arguments of `request(method, …)`: params may be left out where the method takes none. */
export type RequestArgs<M extends MethodName> =
  undefined extends MethodParams<M>
    ? [params?: MethodParams<M>, opts?: RequestOptions]
    : [params: MethodParams<M>, opts?: RequestOptions];

/**
 * The surface of the client that the TUI's controller and the App use. `DaemonClient`
 * implements it; tests pass a fake.
 */
export interface DaemonClientLike {
  /** Current connection state. */
  readonly state: ConnectionState;
  /** Result of the latest successful `initialize`, if any. */
  readonly server: InitializeResult | null;
  /**
   * This client's instance id, the same at every `initialize` (reconnects, profile switches):
   * the daemon names its answers `client:<instanceId>`.
   */
  readonly instanceId: string | undefined;
  /** Connects and handshakes; with `retry`, keeps trying with backoff until it succeeds or `close()`. */
  connect(opts?: { retry?: boolean }): Promise<InitializeResult>;
  /** Sends a request and resolves with its typed result. */
  request<M extends MethodName>(method: M, ...args: RequestArgs<M>): Promise<MethodResult<M>>;
  /** Attaches to a session (full snapshot) and keeps it attached across reconnects. */
  attach(sessionId: string, opts?: { historyLimit?: number }): Promise<AttachResult>;
  /** Detaches from a session and stops tracking it. */
  detach(sessionId: string): Promise<void>;
  /** Reconnects in another profile (the daemon keeps running); attached sessions are dropped. */
  switchProfile(profile: string): Promise<InitializeResult>;
  /** Subscribes to a client event; returns the unsubscribe function. */
  on<E extends ClientEventName>(event: E, listener: ClientEvents[E]): () => void;
  /** Sets the handler of one server-request method (replacing any earlier one); returns its removal. */
  onServerRequest<M extends ServerRequestMethod>(method: M, handler: ServerRequestHandler<M>): () => void;
  /** Closes the connection for good. */
  close(): Promise<void>;
}
