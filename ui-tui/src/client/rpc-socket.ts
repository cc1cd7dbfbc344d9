/**
 * JSON-RPC 2.0 over one WebSocket: requests with ids and timeouts, their answers, notifications
 * and requests from the server. One instance per socket; a reconnect makes a new one, so an answer
 * meant for a closed socket can never leak onto the next.
 */
import WebSocket from 'ws';
import { CallTimeoutError, NotConnectedError, RpcCallError } from './errors.js';

/** The answer to a server request. */
export type ReplyBody = { result: unknown } | { error: { code: number; message: string } };

/** What the socket tells its owner. */
export interface RpcSocketHandlers {
  /** A notification from the server. */
  onNotification(method: string, params: unknown): void;
  /** A request from the server; `reply` sends the answer (dropped once the socket closed). */
  onRequest(id: string | number, method: string, params: unknown, reply: (body: ReplyBody) => void): void;
  /** The socket closed (called once). */
  onClose(): void;
}

/** Options of a socket. */
export interface RpcSocketOptions {
  url: string;
  /** Sent as `Authorization: Bearer <token>` on the upgrade. */
  token: string;
  /** Opening handshake timeout, ms. */
  handshakeTimeoutMs: number;
  /** Largest frame accepted, bytes. */
  maxPayload: number;
}

interface Pending {
  method: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer?: NodeJS.Timeout;
}

/** One JSON-RPC WebSocket connection. */
export class RpcSocket {
  private readonly ws: WebSocket;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly ready: Promise<void>;

  constructor(opts: RpcSocketOptions, handlers: RpcSocketHandlers) {
    this.ws = new WebSocket(opts.url, {
      headers: { Authorization: `Bearer ${opts.token}` },
      perMessageDeflate: false,
      maxPayload: opts.maxPayload,
      handshakeTimeout: opts.handshakeTimeoutMs,
    });
    const ws = this.ws;
    this.ready = new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', (err) => reject(err));
      ws.once('close', (code) => reject(new NotConnectedError(`connection closed (${code})`)));
    });
    this.ready.catch(() => {}); // observed by `opened()`
    ws.on('error', () => {}); // 'close' follows every error
    ws.on('message', (data) => this.onFrame(data.toString(), handlers));
    ws.on('close', () => {
      this.rejectAll(new NotConnectedError('connection closed'));
      handlers.onClose();
    });
  }

  /** Resolves when the socket is open; rejects when it fails to open. */
  opened(): Promise<void> {
    return this.ready;
  }

  /** True while frames can be sent. */
  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Sends a request and resolves with its result.
   * @throws RpcCallError (an error answer), CallTimeoutError, NotConnectedError.
   */
  request(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (!this.isOpen) {
        reject(new NotConnectedError());
        return;
      }
      const id = this.nextId++;
      const p: Pending = { method, resolve, reject };
      if (timeoutMs > 0) {
        p.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new CallTimeoutError(method, timeoutMs));
        }, timeoutMs);
      }
      this.pending.set(id, p);
      this.ws.send(
        JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) }),
      );
    });
  }

  /** Closes at once; pending requests are rejected. */
  terminate(): void {
    this.rejectAll(new NotConnectedError('connection closed'));
    this.ws.terminate();
  }

  private rejectAll(err: Error): void {
    for (const [id, p] of this.pending) {
      if (p.timer) clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(err);
    }
  }

  private onFrame(text: string, handlers: RpcSocketHandlers): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return; // the daemon never sends invalid JSON; ignore rather than crash
    }
    for (const m of Array.isArray(msg) ? msg : [msg]) {
      if (typeof m === 'object' && m !== null) this.onMessage(m as Record<string, unknown>, handlers);
    }
  }

  private onMessage(m: Record<string, unknown>, handlers: RpcSocketHandlers): void {
    const id = m.id;
    if (typeof m.method === 'string') {
      if (typeof id === 'string' || typeof id === 'number') {
        handlers.onRequest(id, m.method, m.params, (body) => {
          if (this.isOpen) this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, ...body }));
        });
      } else {
        handlers.onNotification(m.method, m.params);
      }
      return;
    }
    if (typeof id !== 'number') return;
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    const err = m.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (err && typeof err === 'object') {
      const code = typeof err.code === 'number' ? err.code : -32603;
      p.reject(
        new RpcCallError(p.method, code, typeof err.message === 'string' ? err.message : 'error', err.data),
      );
    } else {
      p.resolve(m.result);
    }
  }
}
