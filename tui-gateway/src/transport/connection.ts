/**
 * `WsConnection`: the `Connection` of the handler contract (rpc/types.ts) over one WebSocket.
 * Everything outbound (responses, events, server requests) goes through one bounded
 * `OutboundQueue`, so a client sees responses and events in the order the daemon produced them,
 * and a slow client costs the daemon at most its queue bounds before it is closed (code 4008).
 */
import type { WebSocket } from 'ws';
import {
  EVENT_NOTIFICATION,
  ServerRequests,
  type InitializeParams,
  type ServerRequestMethod,
  type ServerRequestParams,
  type WireEvent,
} from '@hermes/core/protocol';
import type { z } from 'zod';
import type { Connection } from '../rpc/types.js';
import { formatIssues } from '../rpc/errors.js';
import { requestFrame } from '../rpc/frames.js';
import { OutboundQueue, type OutboundLimits, type OutboundStats } from './outbound-queue.js';
import { nextServerRequestId, PendingServerRequests } from './server-requests.js';

/** WebSocket close codes the daemon uses (4000–4999 are for applications). */
export const CloseCode = {
  /** The daemon is shutting down. */
  GoingAway: 1001,
  /** No `initialize` within the handshake timeout. */
  HandshakeTimeout: 4001,
  /** A frame over the hard payload cap (ws closes by itself). */
  MessageTooBig: 1009,
  /** The outbound queue overflowed: the client was too slow; it recovers by replay. */
  QueueOverflow: 4008,
} as const;

/** How long a closing socket may take to finish its close handshake before it is terminated, ms. */
const CLOSE_GRACE_MS = 2000;

/** Where a connection reports what it does (a `Logger` fits). */
export interface ConnectionLog {
  info(msg: string): void;
  warn(msg: string): void;
}

/**
 * The TCP socket under a `ws` WebSocket (ws 8 keeps it in `_socket`, set once before the
 * connection is handed out and never replaced), for corking: `ws` has no public cork API, and
 * its own per-frame cork/uncork nests inside ours.
 */
function rawSocket(ws: WebSocket): { cork(): void; uncork(): void } | undefined {
  return (ws as unknown as { _socket?: { cork(): void; uncork(): void } | null })._socket ?? undefined;
}

/** One client connection, before and after `initialize`. */
export class WsConnection implements Connection {
  readonly id: string;
  clientName = '';
  clientVersion = '';
  instanceId: string | undefined;
  capabilities: { approvals: boolean; clarify?: boolean; files?: boolean } = { approvals: false };
  profile = 'default';
  /** True once `initialize` succeeded. */
  initialized = false;
  /** True while `initialize` runs (a second one is refused). */
  initializing = false;
  /** Epoch ms of the last frame or pong received (liveness). */
  lastSeen = Date.now();
  private isClosed = false;
  private readonly queue: OutboundQueue;
  private readonly pending: PendingServerRequests;
  private readonly closeCallbacks: Array<() => void> = [];

  /**
   * @param ws the accepted socket.
   * @param id connection id, unique per daemon run (`c-…`).
   * @param limits outbound queue bounds.
   * @param log where overflow and callback failures are reported.
   */
  constructor(
    private readonly ws: WebSocket,
    id: string,
    limits: OutboundLimits,
    private readonly log: ConnectionLog,
  ) {
    this.id = id;
    this.pending = new PendingServerRequests(`connection ${id}`);
    this.queue = new OutboundQueue(
      {
        get bufferedAmount() {
          return ws.bufferedAmount;
        },
        send: (data, cb) => ws.send(data, cb),
        cork: () => rawSocket(ws)?.cork(),
        uncork: () => rawSocket(ws)?.uncork(),
      },
      limits,
      (reason) => this.overflow(reason),
    );
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Counters of the outbound queue (sent, merged, peak). */
  get outboundStats(): OutboundStats {
    return this.queue.stats;
  }

  /** Frames waiting in the outbound queue. */
  get queuedFrames(): number {
    return this.queue.length;
  }

  /** Server requests sent and not yet answered. */
  get pendingRequests(): number {
    return this.pending.size;
  }

  /** Records the handshake (called by the dispatcher's `initialize`). */
  markInitialized(params: z.infer<typeof InitializeParams>, profile: string): void {
    this.clientName = params.client.name;
    this.clientVersion = params.client.version;
    this.instanceId = params.client.instance_id;
    this.capabilities = { ...params.capabilities };
    this.profile = profile;
    this.initialized = true;
  }

  notify(event: WireEvent): void {
    if (this.isClosed) return;
    this.queue.pushEvent(event);
  }

  /** Queues an already serialized frame (responses). Dropped silently once closed. */
  sendFrame(frame: string): void {
    if (this.isClosed) return;
    this.queue.pushFrame(frame);
  }

  /** Sends a notification that is not an event (none exist yet besides `event`). */
  sendNotification(method: string, params: unknown): void {
    if (method === EVENT_NOTIFICATION) return this.notify(params as WireEvent);
    this.sendFrame(JSON.stringify({ jsonrpc: '2.0', method, params }));
  }

  request<M extends ServerRequestMethod>(
    method: M,
    params: ServerRequestParams<M>,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const spec = ServerRequests[method];
    if (!spec) return Promise.reject(new Error(`unknown server request method "${String(method)}"`));
    const parsed = spec.params.safeParse(params);
    if (!parsed.success) {
      return Promise.reject(
        new TypeError(formatIssues(`invalid params for server request ${method}`, parsed.error)),
      );
    }
    const id = nextServerRequestId();
    const promise = this.pending.add(id, method, signal);
    if (!this.isClosed && !signal?.aborted) {
      let frame: string;
      try {
        frame = requestFrame(id, method, parsed.data);
      } catch (err) {
        this.pending.fail(id, err as Error);
        return promise;
      }
      this.queue.pushFrame(frame);
    }
    return promise;
  }

  onClose(cb: () => void): void {
    if (this.isClosed) {
      queueMicrotask(() => this.runCallback(cb));
      return;
    }
    this.closeCallbacks.push(cb);
  }

  /** Routes a client's answer to a server request. @returns false when no such request waits. */
  settleResponse(
    id: string | number,
    result: unknown,
    error?: { code: number; message: string; data?: unknown },
  ): boolean {
    return this.pending.settle(id, result, error);
  }

  /** Closes with a code and reason; the socket is terminated if the handshake takes too long. */
  close(code: number, reason: string): void {
    this.markClosed(reason);
    const state = this.ws.readyState;
    if (state === this.ws.CLOSED) return;
    try {
      if (state === this.ws.OPEN) this.ws.close(code, reason.slice(0, 120));
    } catch {
      /* a socket that cannot even close is terminated below */
    }
    const timer = setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS);
    timer.unref();
    this.ws.once('close', () => clearTimeout(timer));
  }

  /** Tears the socket down at once (dead peer). */
  terminate(reason: string): void {
    this.markClosed(reason);
    this.ws.terminate();
  }

  /**
   * Marks the connection closed: drops the queue, rejects pending requests, and runs the onClose
   * callbacks in a microtask (never re-entrantly inside `notify`).
   */
  markClosed(reason: string): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.queue.stop();
    this.pending.closeAll(reason);
    // Deferred: a close caused by an overflow inside `notify` must not re-enter the caller's loop.
    const callbacks = this.closeCallbacks.splice(0);
    queueMicrotask(() => {
      for (const cb of callbacks) this.runCallback(cb);
    });
  }

  private runCallback(cb: () => void): void {
    try {
      cb();
    } catch (err) {
      this.log.warn(
        `onClose callback of connection ${this.id} threw: ${(err as Error).stack ?? String(err)}`,
      );
    }
  }

  private overflow(reason: string): void {
    this.log.warn(
      `connection ${this.id} (${this.clientName || 'uninitialized'}) closed: outbound queue overflow, ${reason}`,
    );
    this.close(CloseCode.QueueOverflow, 'outbound queue overflow');
  }
}
