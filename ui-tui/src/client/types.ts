/**
 * Types shared by the gateway client and its users (the session controller, the App, test fakes).
 * Only types from `@hermes/core/protocol` are imported, so nothing here loads zod at run time.
 */
import type {
  MethodName,
  MethodParams,
  MethodResult,
  ServerRequestMethod,
  ServerRequestParams,
  ServerRequestResult,
  WireEvent,
} from '@hermes/core/protocol';

/** Where the client is in its connection life. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';

/** Result of `initialize`. */
export type InitializeResult = MethodResult<'initialize'>;

/** Result of `session.attach`: a full snapshot or a replay of missed events. */
export type AttachResult = MethodResult<'session.attach'>;

/** Why an attach result is delivered. */
export type AttachReason = 'attach' | 'reattach';

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
  /** A live event of an attached session, deduplicated by seq and delivered after its attach. */
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
 * Answers a server request (`approval.request`, `clarify.request`). The resolved value is sent
 * back as the JSON-RPC result. Throw `DropServerRequest` to send nothing (it was resolved
 * elsewhere); any other error is sent as a JSON-RPC error.
 */
export type ServerRequestHandler = <M extends ServerRequestMethod>(
  method: M,
  params: ServerRequestParams<M>,
  ctx: ServerRequestContext,
) => Promise<ServerRequestResult<M>>;

/** Options of one call. */
export interface CallOptions {
  /** Reject with a timeout error after this many ms (0: never). */
  timeoutMs?: number;
}

/**
 * The surface of the gateway client that the session controller and the App use. The real
 * `GatewayClient` implements it; tests pass a fake.
 */
export interface GatewayClientLike {
  /** Current connection state. */
  readonly state: ConnectionState;
  /** Result of the latest successful `initialize`, if any. */
  readonly server: InitializeResult | null;
  /**
   * This client's instance id, the same at every `initialize` (reconnects, profile switches):
   * the daemon names its answers `client:<instanceId>`.
   */
  readonly instanceId: string;
  /** Connects and handshakes; with `retry`, keeps trying with backoff until it succeeds or `close()`. */
  connect(opts?: { retry?: boolean }): Promise<InitializeResult>;
  /** Calls a method and resolves with its typed result. */
  call<M extends MethodName>(
    method: M,
    params: MethodParams<M>,
    opts?: CallOptions,
  ): Promise<MethodResult<M>>;
  /** Attaches to a session (full snapshot) and keeps it attached across reconnects. */
  attach(sessionId: string, opts?: { historyLimit?: number }): Promise<AttachResult>;
  /** Detaches from a session and stops tracking it. */
  detach(sessionId: string): Promise<void>;
  /** Reconnects in another profile (the daemon keeps running); attached sessions are dropped. */
  switchProfile(profile: string): Promise<InitializeResult>;
  /** Subscribes to a client event; returns the unsubscribe function. */
  on<E extends ClientEventName>(event: E, listener: ClientEvents[E]): () => void;
  /** Sets the handler of server requests (one at a time). */
  setServerRequestHandler(handler: ServerRequestHandler | null): void;
  /** Closes the connection for good. */
  close(): void;
}
