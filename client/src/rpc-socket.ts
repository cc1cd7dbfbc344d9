/**
 * JSON-RPC 2.0 over one WebSocket: requests with ids and timeouts, their answers, notifications
 * and requests from the server. One instance per socket; a reconnect makes a new one, so an answer
 * meant for a closed socket can never leak onto the next.
 */
import WebSocket from 'ws';
import { CallTimeoutError, DaemonConnectError, NotConnectedError, RpcCallError } from './errors.js';

/** The answer to a server request. */
export type ReplyBody = { result: unknown } | { error: { code: number; message: string } };

/** How a socket closed: the WebSocket close code and reason. */
export interface CloseInfo {
  code: number;
  reason: string;
}

/** What the socket tells its owner. */
export interface RpcSocketHandlers {
  /** A notification from the server. */
  onNotification(method: string, params: unknown): void;
  /** A request from the server; `reply` sends the answer (dropped once the socket closed). */
  onRequest(id: string | number, method: string, params: unknown, reply: (body: ReplyBody) => void): void;
  /** Every parsed incoming message (answers, notifications, requests), before it is handled. */
  onFrame?(frame: Record<string, unknown>): void;
  /** The socket closed (called once). */
  onClose(info: CloseInfo): void;
}

/** Options of a socket. */
export interface RpcSocketOptions {
  url: string;
  /** Upgrade request headers (normally `Authorization: Bearer <token>`). */
  headers: Record<string, string>;
  /** Budget for the opening handshake, ms. */
  handshakeTimeoutMs: number;
  /** Largest frame accepted, bytes (0: no limit). */
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
  /** The underlying socket (tests send raw frames or pause it). */
  readonly ws: WebSocket;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly ready: Promise<void>;
  private closeInfo: CloseInfo | null = null;

  constructor(opts: RpcSocketOptions, handlers: RpcSocketHandlers) {
    this.ws = new WebSocket(opts.url, {
      headers: opts.headers,
      perMessageDeflate: false,
      maxPayload: opts.maxPayload,
    });
    const ws = this.ws;
    const where = opts.url.replace(/^ws:\/\//, '').replace(/\/$/, '');
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new DaemonConnectError('timeout', `connecting to ${where} took over ${opts.handshakeTimeoutMs} ms`),
        );
        ws.terminate();
      }, opts.handshakeTimeoutMs);
      const fail = (err: Error): void => {
        clearTimeout(timer);
        reject(err);
      };
      ws.once('open', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          fail(
            new DaemonConnectError(
              'refused',
              `upgrade refused: ${res.statusCode} ${body.trim()}`,
              res.statusCode,
            ),
          );
          ws.terminate();
        });
      });
      ws.once('error', (err) =>
        fail(new DaemonConnectError('socket', `cannot connect to ${where}: ${err.message}`)),
      );
      ws.once('close', (code) => fail(new NotConnectedError(`connection closed (${code})`)));
    });
    this.ready.catch(() => {}); // observed by `opened()`
    ws.on('error', () => {}); // 'close' follows every error
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.onText(data.toString(), handlers);
    });
    ws.on('close', (code, reason) => {
      const info = { code, reason: reason.toString() };
      this.closeInfo = info;
      this.rejectAll(
        new NotConnectedError(`connection closed (${code}${info.reason ? ` ${info.reason}` : ''})`),
      );
      handlers.onClose(info);
    });
  }

  /**
   * Resolves when the socket is open.
   * @throws DaemonConnectError (refused upgrade with its status, timeout, socket error) when it fails to open.
   */
  opened(): Promise<void> {
    return this.ready;
  }

  /** True while frames can be sent. */
  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** How the socket closed; null while it is open or opening. */
  get closed(): CloseInfo | null {
    return this.closeInfo;
  }

  /**
   * Sends a request and resolves with its result (`params` undefined: the frame has none).
   * @param timeoutMs reject with CallTimeoutError after this long (0: never).
   * @throws RpcCallError (an error answer), CallTimeoutError, NotConnectedError.
   */
  request(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (!this.isOpen) {
        reject(new NotConnectedError(`connection closed; cannot call ${method}`));
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

  /** Closes with a close handshake (`code`, `reason`); pending requests are rejected once it closed. */
  close(code = 1000, reason = 'client closing'): void {
    if (this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
    else this.ws.close(code, reason);
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

  private onText(text: string, handlers: RpcSocketHandlers): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return; // the daemon never sends invalid JSON; ignore rather than crash
    }
    for (const m of Array.isArray(msg) ? msg : [msg]) {
      if (typeof m !== 'object' || m === null) continue;
      handlers.onFrame?.(m as Record<string, unknown>);
      this.onMessage(m as Record<string, unknown>, handlers);
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
