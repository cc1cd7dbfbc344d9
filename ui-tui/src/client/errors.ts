/** Errors the gateway client raises. */

/** The daemon answered a call with a JSON-RPC error. */
export class RpcCallError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcCallError';
  }
}

/** A call was made while no connection is up, or the connection closed before the answer. */
export class NotConnectedError extends Error {
  constructor(message = 'not connected to the daemon') {
    super(message);
    this.name = 'NotConnectedError';
  }
}

/** A call got no answer in time. */
export class CallTimeoutError extends Error {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`${method}: no answer within ${timeoutMs} ms`);
    this.name = 'CallTimeoutError';
  }
}

/**
 * Thrown by a server-request handler when the request was resolved elsewhere (another client
 * answered, a timeout): the client then sends no answer.
 */
export class DropServerRequest extends Error {
  constructor() {
    super('server request resolved elsewhere');
    this.name = 'DropServerRequest';
  }
}
