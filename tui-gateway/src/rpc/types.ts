/**
 * The contract between the daemon's transport (WebSocket server, JSON-RPC dispatch, connections)
 * and the handlers that implement methods (live sessions, config, profiles …).
 */
import type { z } from 'zod';
import type {
  MethodName,
  Methods,
  MethodResult,
  ServerRequestMethod,
  ServerRequestParams,
  WireEvent,
} from '@hermes/core/protocol';

/** One attached client connection (after `initialize`). */
export interface Connection {
  /** Unique per daemon run, e.g. `c-1a2b3c`. */
  readonly id: string;
  /** `client.name` from `initialize`. */
  readonly clientName: string;
  /**
   * `client.instance_id` from `initialize`: the client's stable id across its reconnects and
   * profile switches (answers are `by: "client:<instance_id>"`); absent when it sent none.
   */
  readonly instanceId?: string | undefined;
  readonly capabilities: { approvals: boolean; clarify?: boolean; files?: boolean };
  /** The profile this connection works in; handlers may change it (`/profile`). */
  profile: string;
  /** True once the socket closed (or was closed for overflow). */
  readonly closed: boolean;
  /**
   * Queues an `event` notification. Never blocks: the outbound queue is bounded; consecutive
   * `message.delta`/`reasoning.delta` of one session may be merged; on overflow the connection is
   * closed (the client recovers by replay).
   */
  notify(event: WireEvent): void;
  /**
   * Sends a server request (`srq-…` id) and resolves with the client's result as it came: the
   * request's owner decides whether it is usable (`answerReply` of core's approvals/pending.ts).
   * @throws RpcFailureError when the client answers with an error; Error when the connection
   *   closes first or `signal` aborts.
   */
  request<M extends ServerRequestMethod>(
    method: M,
    params: ServerRequestParams<M>,
    signal?: AbortSignal,
  ): Promise<unknown>;
  /** Registers a callback for when the connection closes (called once). */
  onClose(cb: () => void): void;
}

/** Validated params of a method. */
export type HandlerParams<M extends MethodName> = z.infer<(typeof Methods)[M]['params']>;

/** Implements one method. Throw `RpcMethodError` for a JSON-RPC error with a code. */
export type Handler<M extends MethodName> = (
  params: HandlerParams<M>,
  conn: Connection,
) => Promise<MethodResult<M>>;

/** Registry of handlers, filled by each layer of the daemon at start. */
export interface HandlerRegistry {
  register<M extends MethodName>(method: M, handler: Handler<M>): void;
}

/** An error a handler throws to answer with a specific JSON-RPC error code (see `RpcErrorCode`). */
export class RpcMethodError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcMethodError';
  }
}
