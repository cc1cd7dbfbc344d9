/**
 * The daemon's WebSocket server: HTTP on 127.0.0.1 only, on a free port;
 * upgrades checked by auth.ts (401 / 403) and refused with 503 while shutting down; no
 * compression; a hard payload cap (`hardMaxPayload`, default 4 × MAX_FRAME_BYTES = 16 MiB) above
 * which ws closes the socket with 1009 — frames between MAX_FRAME_BYTES and the cap are read and
 * answered with -32007 by the dispatcher, and the connection stays open.
 *
 * Liveness: every `pingIntervalMs` (15 s) each socket gets a WS ping; a socket
 * that sent no frame and no pong for `idleTimeoutMs` (45 s) is terminated.
 *
 * Cheap local denial of service: sockets that have not finished their upgrade request are bounded
 * in time and number (upgrade-guard.ts), and refused connections are logged rate-limited
 * (refusal-log.ts), so neither descriptors nor the log grow with the number of attempts.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from '../lifecycle/logger.js';
import { checkUpgrade } from './auth.js';
import { WsConnection } from './connection.js';
import type { OutboundLimits } from './outbound-queue.js';
import { RefusalLog } from './refusal-log.js';
import { UpgradeGuard, type UpgradeLimits } from './upgrade-guard.js';
import { listenOn } from '@hermes/core/util';

/** Options of `startGatewayServer`. */
export interface GatewayServerOptions {
  /** The bearer token clients must present. */
  token: string;
  /** Interface to listen on; always loopback (default 127.0.0.1). */
  host?: string;
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Frames above this close the socket with 1009 (default 16 MiB). */
  hardMaxPayload: number;
  pingIntervalMs: number;
  idleTimeoutMs: number;
  limits: OutboundLimits;
  log: Logger;
  /** Called for each accepted socket, with its connection; wire frames to the dispatcher here. */
  onConnection(conn: WsConnection, ws: WebSocket): void;
  /** When it returns false, upgrades are refused with 503 (shutdown). */
  accepting(): boolean;
  /** Header timeout and half-open caps (defaults in upgrade-guard.ts). */
  upgradeLimits?: UpgradeLimits;
}

/** A listening server. */
export interface GatewayServer {
  readonly port: number;
  /** Open connections (initialized or not). */
  connections(): WsConnection[];
  /**
   * Closes every connection with `code`/`reason`, waits up to `graceMs` for them to finish, then
   * terminates the rest and closes the listener.
   */
  close(code: number, reason: string, graceMs: number): Promise<void>;
}

let connectionCounter = 0;

function newConnectionId(): string {
  connectionCounter += 1;
  return `c-${connectionCounter.toString(36)}${Math.floor(Math.random() * 0xfff)
    .toString(16)
    .padStart(3, '0')}`;
}

function refuse(socket: Duplex, status: number, message: string): void {
  const text = { 401: 'Unauthorized', 403: 'Forbidden', 503: 'Service Unavailable' }[status] ?? 'Error';
  const body = `${message}\n`;
  try {
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  } catch {
    socket.destroy();
  }
}

/** Starts listening. @throws Error when the port cannot be bound. */
export async function startGatewayServer(opts: GatewayServerOptions): Promise<GatewayServer> {
  const host = opts.host ?? '127.0.0.1';
  /** Open sockets by connection. */
  const sockets = new Map<WsConnection, WebSocket>();
  const refusals = new RefusalLog((line) => opts.log.warn(line));
  const guard = new UpgradeGuard(opts.upgradeLimits ?? {}, (peer, why) => refusals.refused(peer, why));
  const http: Server = createServer((req, res) => {
    guard.settle(req.socket);
    refusals.refused(req.socket.remoteAddress ?? '?', '426 not an upgrade');
    res.writeHead(426, { 'Content-Type': 'text/plain', Connection: 'close' });
    res.end('tui-gateway speaks JSON-RPC over WebSocket only\n');
  });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: opts.hardMaxPayload,
    perMessageDeflate: false,
    clientTracking: false,
  });

  const accept = (ws: WebSocket): void => {
    const conn = new WsConnection(ws, newConnectionId(), opts.limits, opts.log);
    sockets.set(conn, ws);
    ws.on('error', (err) => opts.log.debug(`connection ${conn.id} socket error: ${err.message}`));
    const touch = (): void => {
      conn.lastSeen = Date.now();
    };
    ws.on('pong', touch);
    ws.on('message', touch);
    ws.on('close', (code, reason) => {
      sockets.delete(conn);
      conn.markClosed(`socket closed (${code}${reason.length ? ` ${reason.toString()}` : ''})`);
      opts.log.info(`connection ${conn.id} (${conn.clientName || 'uninitialized'}) closed: ${code}`);
    });
    opts.log.info(`connection ${conn.id} opened`);
    opts.onConnection(conn, ws);
  };

  http.on('connection', (socket: Socket) => guard.admit(socket));
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    guard.settle(req.socket);
    socket.on('error', () => socket.destroy());
    const peer = req.socket.remoteAddress ?? '?';
    if (!opts.accepting()) {
      refusals.refused(peer, '503 shutting down');
      return refuse(socket, 503, 'daemon is shutting down');
    }
    const verdict = checkUpgrade(req.headers, opts.token);
    if (!verdict.ok) {
      refusals.refused(peer, `${verdict.status} ${verdict.message}`);
      return refuse(socket, verdict.status, verdict.message);
    }
    wss.handleUpgrade(req, socket, head, accept);
  });
  http.on('clientError', (_err, socket) => socket.destroy());

  const heartbeat = setInterval(() => {
    const now = Date.now();
    for (const [conn, ws] of sockets) {
      if (now - conn.lastSeen > opts.idleTimeoutMs) {
        opts.log.warn(`connection ${conn.id} silent for ${now - conn.lastSeen} ms: terminated`);
        sockets.delete(conn);
        conn.terminate('idle timeout');
        continue;
      }
      try {
        ws.ping();
      } catch {
        /* closing */
      }
    }
  }, opts.pingIntervalMs);
  heartbeat.unref();

  await listenOn(http, opts.port ?? 0, host);
  http.on('error', (err) => opts.log.error('http server error', err));
  const port = (http.address() as AddressInfo).port;

  return {
    port,
    connections: () => [...sockets.keys()],
    close: async (code, reason, graceMs) => {
      clearInterval(heartbeat);
      refusals.flush();
      for (const conn of [...sockets.keys()]) conn.close(code, reason);
      const deadline = Date.now() + graceMs;
      while (sockets.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const [conn, ws] of sockets) {
        conn.markClosed('daemon stopped');
        ws.terminate();
      }
      sockets.clear();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      wss.close();
    },
  };
}
