/**
 * The JSON-RPC dispatcher: the daemon's `HandlerRegistry`. For each frame of a connection it
 * classifies (frames.ts), enforces the handshake (`initialize` first, once), validates params with `Methods[method].params`, runs the handler and answers.
 *
 * Requests that arrive while the connection's `initialize` is still being handled (a client may
 * pipeline `initialize` + `session.create` in one write) wait for it and are then dispatched in
 * arrival order, after the `initialize` answer; if `initialize` fails they get -32000. At most
 * `MAX_WAITING_FOR_INIT` wait per connection (more → -32000 at once).
 *
 * Error mapping: unknown method → -32601; known method without a registered handler → -32601;
 * not initialized (no `initialize` received yet) → -32000; bad params → -32602 naming the zod issue paths; `RpcMethodError` →
 * its code; core's config and damaged-database errors → -32006 / -32008 (domain-errors.ts); any
 * other exception → -32603 with its message (stack logged). Handlers run
 * concurrently; a handler that never resolves only delays its own answer.
 */
import { Methods, RpcErrorCode, type MethodName, type RpcId } from '@hermes/core/protocol';
import type { Logger } from '../lifecycle/logger.js';
import type { WsConnection } from '../transport/connection.js';
import { domainRpcError } from './domain-errors.js';
import { formatIssues, summarizeIssues } from './errors.js';
import { classifyFrame, errorFrame, successFrame } from './frames.js';
import { RpcMethodError, type Handler, type HandlerRegistry } from './types.js';

/** Requests one connection may pipeline behind an `initialize` that is still running. */
export const MAX_WAITING_FOR_INIT = 256;

/** A request held until the connection's `initialize` finished. */
interface WaitingRequest {
  id: RpcId;
  method: string;
  params: unknown;
}

/** Options of the dispatcher. */
export interface DispatcherOptions {
  log: Logger;
  /** Frames larger than this many bytes get -32007 (MAX_FRAME_BYTES). */
  maxFrameBytes: number;
  /** Validate every handler result against `Methods[method].result` (dev/test). */
  validateResults: boolean;
  /**
   * Runs `initialize` (validated params) and returns its result; marks the connection initialized.
   * Supplied by the daemon, which knows epoch, version and profiles.
   */
  initialize: Handler<'initialize'>;
}

/** Routes frames of every connection to handlers. */
export class Dispatcher implements HandlerRegistry {
  private readonly handlers = new Map<string, Handler<MethodName>>();
  /** Per connection: requests received while its `initialize` runs, in arrival order. */
  private readonly waitingForInit = new WeakMap<WsConnection, WaitingRequest[]>();
  /** Requests being handled right now (all connections). */
  inFlight = 0;

  constructor(private readonly opts: DispatcherOptions) {
    this.handlers.set('initialize', opts.initialize as unknown as Handler<MethodName>);
  }

  /**
   * Registers the handler of a method of `Methods`.
   * @throws Error when the method is not in `Methods` or already has a handler.
   */
  register<M extends MethodName>(method: M, handler: Handler<M>): void {
    if (!Object.hasOwn(Methods, method)) throw new Error(`register: "${method}" is not a method of Methods`);
    if (this.handlers.has(method)) throw new Error(`register: "${method}" already has a handler`);
    this.handlers.set(method, handler as unknown as Handler<MethodName>);
  }

  /** True when `method` has a handler. */
  has(method: string): boolean {
    return this.handlers.has(method);
  }

  /** Handles one incoming frame of `conn`. Never throws. */
  handleFrame(conn: WsConnection, data: Buffer, isBinary: boolean): void {
    let frame;
    try {
      frame = classifyFrame(data, isBinary, this.opts.maxFrameBytes);
    } catch (err) {
      this.opts.log.error(`classifying a frame of connection ${conn.id} failed`, err);
      conn.sendFrame(errorFrame(null, RpcErrorCode.InternalError, 'internal error reading the frame'));
      return;
    }
    switch (frame.kind) {
      case 'invalid':
        this.opts.log.debug(`connection ${conn.id}: ${frame.message}`);
        conn.sendFrame(errorFrame(frame.id, frame.code, frame.message));
        return;
      case 'response':
        if (!conn.settleResponse(frame.id, frame.result, frame.error)) {
          this.opts.log.debug(
            `connection ${conn.id}: answer to unknown or settled request ${String(frame.id)}`,
          );
        }
        return;
      case 'notification':
        // Clients send no notifications in this protocol; ignored as JSON-RPC allows.
        this.opts.log.debug(`connection ${conn.id}: ignored notification ${frame.method}`);
        return;
      case 'request':
        void this.dispatch(conn, frame.id, frame.method, frame.params);
        return;
    }
  }

  private async dispatch(conn: WsConnection, id: RpcId, method: string, params: unknown): Promise<void> {
    const fail = (code: number, message: string, data?: unknown): void =>
      conn.sendFrame(errorFrame(id, code, message, data));
    if (!Object.hasOwn(Methods, method))
      return fail(RpcErrorCode.MethodNotFound, `unknown method "${method}"`);
    const name = method as MethodName;
    if (name === 'initialize') {
      if (conn.initialized || conn.initializing)
        return fail(RpcErrorCode.NotInitialized, 'already initialized');
    } else if (!conn.initialized && conn.initializing) {
      // pipelined behind a running `initialize`: answered after it, in arrival order
      const waiting = this.waitingForInit.get(conn) ?? [];
      if (waiting.length >= MAX_WAITING_FOR_INIT) {
        return fail(
          RpcErrorCode.NotInitialized,
          `not initialized: more than ${MAX_WAITING_FOR_INIT} requests sent before "initialize" was answered`,
        );
      }
      waiting.push({ id, method, params });
      this.waitingForInit.set(conn, waiting);
      return;
    } else if (!conn.initialized) {
      return fail(RpcErrorCode.NotInitialized, `not initialized: call "initialize" before "${method}"`);
    }
    const handler = this.handlers.get(name);
    if (!handler) {
      return fail(
        RpcErrorCode.MethodNotFound,
        `method "${method}" is not available in this daemon (no handler)`,
      );
    }
    const parsed = Methods[name].params.safeParse(params);
    if (!parsed.success) {
      return fail(RpcErrorCode.InvalidParams, formatIssues(`invalid params for ${method}`, parsed.error), {
        issues: summarizeIssues(parsed.error),
      });
    }
    if (name === 'initialize') conn.initializing = true;
    this.inFlight++;
    try {
      const result = await handler(parsed.data as never, conn);
      if (this.opts.validateResults) {
        const check = Methods[name].result.safeParse(result);
        if (!check.success) {
          const msg = formatIssues(
            `handler of ${method} returned an invalid result`,
            check.error,
            '(result)',
          );
          this.opts.log.error(msg);
          return fail(RpcErrorCode.InternalError, msg);
        }
      }
      let frame: string;
      try {
        frame = successFrame(id, result);
      } catch (err) {
        this.opts.log.error(`result of ${method} cannot be serialized`, err);
        return fail(
          RpcErrorCode.InternalError,
          `result of ${method} cannot be serialized: ${(err as Error).message}`,
        );
      }
      conn.sendFrame(frame);
    } catch (err) {
      if (err instanceof RpcMethodError) return fail(err.code, err.message, err.data);
      const mapped = domainRpcError(err);
      if (mapped) return fail(mapped.code, mapped.message, mapped.data);
      this.opts.log.error(`handler of ${method} failed (connection ${conn.id})`, err);
      return fail(RpcErrorCode.InternalError, err instanceof Error ? err.message : String(err));
    } finally {
      this.inFlight--;
      if (name === 'initialize') {
        conn.initializing = false;
        this.releaseWaiting(conn);
      }
    }
  }

  /**
   * Dispatches the requests that waited for `initialize`, in arrival order (its answer is queued
   * already). After a failed `initialize` each gets the not-initialized error.
   */
  private releaseWaiting(conn: WsConnection): void {
    const waiting = this.waitingForInit.get(conn);
    if (!waiting) return;
    this.waitingForInit.delete(conn);
    for (const w of waiting) {
      if (conn.initialized) {
        void this.dispatch(conn, w.id, w.method, w.params);
      } else {
        conn.sendFrame(
          errorFrame(
            w.id,
            RpcErrorCode.NotInitialized,
            `not initialized: the "initialize" before "${w.method}" failed`,
          ),
        );
      }
    }
  }
}
