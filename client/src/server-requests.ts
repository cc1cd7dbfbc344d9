/**
 * Server requests the daemon sends to a client (`approval.request`, `clarify.request`), answered
 * by handlers keyed by method.
 */
import type { ServerRequestMethod } from '@hermes/core/protocol';
import { DropServerRequest } from './errors.js';
import type { ReplyBody } from './rpc-socket.js';
import type { ServerRequestContext, ServerRequestHandler } from './types.js';

/** What a server-request handler returns to send no reply at all (see `ServerRequestHandler`). */
export const NO_REPLY: unique symbol = Symbol('no reply');

/** JSON-RPC "method not found" and "internal error" codes (values of `RpcErrorCode`). */
const METHOD_NOT_FOUND = -32601;
const INTERNAL_ERROR = -32603;

type AnyHandler = (params: unknown, ctx: ServerRequestContext) => unknown;

/** The handlers of one client, keyed by method. */
export class ServerRequestHandlers {
  private readonly handlers = new Map<string, AnyHandler>();

  /** Sets the handler of `method` (replacing any earlier one); returns its removal. */
  set<M extends ServerRequestMethod>(method: M, handler: ServerRequestHandler<M>): () => void {
    const h = handler as AnyHandler;
    this.handlers.set(method, h);
    return () => {
      if (this.handlers.get(method) === h) this.handlers.delete(method);
    };
  }

  /**
   * Answers one request through `reply`: the handler's result, a -32603 error for a failing
   * handler, -32601 for a method without a handler, nothing for `NO_REPLY` / `DropServerRequest`.
   */
  dispatch(id: string | number, method: string, params: unknown, reply: (b: ReplyBody) => void): void {
    const handler = this.handlers.get(method);
    if (!handler) {
      reply({ error: { code: METHOD_NOT_FOUND, message: `method not supported by this client: ${method}` } });
      return;
    }
    Promise.resolve()
      .then(() => handler(params, { rpcId: id }))
      .then(
        // When the socket that carried the request is gone, `reply` drops the answer: the
        // daemon re-sends still-open requests to the connection that re-attaches.
        (result) => {
          if (result !== NO_REPLY) reply({ result });
        },
        (err: unknown) => {
          if (err instanceof DropServerRequest) return;
          reply({
            error: { code: INTERNAL_ERROR, message: err instanceof Error ? err.message : String(err) },
          });
        },
      );
  }
}
