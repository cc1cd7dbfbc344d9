/** Errors the daemon client raises. */

/** The daemon answered a request with a JSON-RPC error (`{code, message, data?}`). */
export class RpcCallError extends Error {
  constructor(
    /** The method that was called. */
    readonly method: string,
    /** JSON-RPC error code (see `RpcErrorCode` in @hermes/core/protocol). */
    readonly code: number,
    message: string,
    /** `error.data` as the daemon sent it. */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcCallError';
  }
}

/** A request was made while no connection is up, or the connection closed before the answer. */
export class NotConnectedError extends Error {
  constructor(message = 'not connected to the daemon') {
    super(message);
    this.name = 'NotConnectedError';
  }
}

/** A request got no answer in time. */
export class CallTimeoutError extends Error {
  constructor(
    readonly method: string,
    /** The budget that ran out, ms. */
    readonly timeoutMs: number,
  ) {
    super(`${method}: no answer within ${timeoutMs} ms`);
    this.name = 'CallTimeoutError';
  }
}

/**
 * Thrown by a server-request handler when the request was resolved elsewhere (another client
 * answered, a timeout): the client then sends no answer. Returning `NO_REPLY` does the same.
 */
export class DropServerRequest extends Error {
  constructor() {
    super('server request resolved elsewhere');
    this.name = 'DropServerRequest';
  }
}

/** Why opening a connection failed. */
export type ConnectFailure =
  /** No discovery file under the root: no daemon was started (or it stopped cleanly). */
  | 'not_running'
  /** The discovery file names a process that is gone (`kill -9`, a crash). */
  | 'stale'
  /** The discovery file exists but is unreadable or malformed. */
  | 'invalid_discovery'
  /** The daemon refused the WebSocket upgrade (`status` holds the HTTP status). */
  | 'refused'
  /** Opening the socket took longer than the budget. */
  | 'timeout'
  /** Any other socket error (connection refused, reset). */
  | 'socket';

/** Opening a connection to the daemon failed; `reason` says why. */
export class DaemonConnectError extends Error {
  constructor(
    readonly reason: ConnectFailure,
    message: string,
    /** HTTP status of a refused upgrade (401 bad token, 403 foreign Origin, 503 busy). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'DaemonConnectError';
  }
}
