/**
 * A tiny scripted JSON-RPC WebSocket server for client tests (not the real daemon): checks
 * the bearer token, answers `initialize` and `ping`, and lets a test add handlers, push events and
 * send server requests.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** A handler returns the result, or throws `{code, message}` for a JSON-RPC error. */
export type TestHandler = (params: Record<string, unknown>, conn: TestConn) => unknown;

/** One accepted connection. */
export interface TestConn {
  ws: WebSocket;
  /** Headers of the upgrade request. */
  headers: Record<string, string | string[] | undefined>;
  /** Every request received, in order. */
  requests: Array<{ id: unknown; method: string; params: Record<string, unknown> }>;
  /** Answers to server requests, by id. */
  answers: Map<string, Record<string, unknown>>;
  /** Sends a raw message. */
  send(msg: unknown): void;
  /** Sends an `event` notification. */
  event(type: string, sessionId: string, seq: number, payload?: Record<string, unknown>): void;
}

/** The running test server. */
export interface TestServer {
  port: number;
  url: string;
  token: string;
  epoch: string;
  conns: TestConn[];
  handlers: Map<string, TestHandler>;
  /** When true, pings are never answered. */
  ignorePings: boolean;
  /** Resolves when `n` connections have completed `initialize`. */
  waitForConns(n: number): Promise<TestConn>;
  close(): Promise<void>;
}

/** Starts a server on a free loopback port (or the given one). */
export async function startTestServer(
  opts: { token?: string; epoch?: string; port?: number } = {},
): Promise<TestServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: opts.port ?? 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const port = (wss.address() as AddressInfo).port;
  const waiters: Array<{ n: number; resolve: (c: TestConn) => void }> = [];
  const server: TestServer = {
    port,
    url: `ws://127.0.0.1:${port}`,
    token: opts.token ?? 'secret',
    epoch: opts.epoch ?? 'epoch-1',
    conns: [],
    handlers: new Map(),
    ignorePings: false,
    waitForConns: (n) =>
      new Promise((resolve) => {
        const ready = server.conns.filter((c) => c.requests.some((r) => r.method === 'initialize'));
        if (ready.length >= n) resolve(ready[n - 1]!);
        else waiters.push({ n, resolve });
      }),
    close: () =>
      new Promise((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
  const checkWaiters = (): void => {
    const ready = server.conns.filter((c) => c.requests.some((r) => r.method === 'initialize'));
    for (const w of [...waiters]) {
      if (ready.length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(ready[w.n - 1]!);
      }
    }
  };
  wss.on('connection', (ws, req) => {
    if (req.headers.authorization !== `Bearer ${server.token}`) {
      ws.close(4001, 'unauthorized');
      return;
    }
    const conn: TestConn = {
      ws,
      headers: { ...req.headers },
      requests: [],
      answers: new Map(),
      send: (msg) => ws.send(JSON.stringify(msg)),
      event: (type, sessionId, seq, payload = {}) =>
        conn.send({ jsonrpc: '2.0', method: 'event', params: { type, session_id: sessionId, seq, payload } }),
    };
    server.conns.push(conn);
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as Record<string, unknown>;
      if (typeof msg.method !== 'string') {
        conn.answers.set(String(msg.id), msg);
        return;
      }
      const params = (msg.params ?? {}) as Record<string, unknown>;
      conn.requests.push({ id: msg.id, method: msg.method, params });
      const reply = (body: Record<string, unknown>): void =>
        conn.send({ jsonrpc: '2.0', id: msg.id, ...body });
      if (msg.method === 'ping') {
        if (!server.ignorePings) reply({ result: { pong: true, time: Date.now() } });
        return;
      }
      const handler =
        server.handlers.get(msg.method) ??
        (msg.method === 'initialize'
          ? () => ({
              server: { name: 'test', version: '0' },
              epoch: server.epoch,
              connection_id: `c-${server.conns.length}`,
              profile: (params.profile as string | undefined) ?? 'default',
              profiles: ['default', 'work'],
            })
          : undefined);
      if (!handler) {
        reply({ error: { code: -32601, message: `unknown method ${msg.method}` } });
        return;
      }
      Promise.resolve()
        .then(() => handler(params, conn))
        .then(
          (result) => {
            reply({ result });
            if (msg.method === 'initialize') checkWaiters();
          },
          (err: { code?: number; message?: string }) =>
            reply({ error: { code: err.code ?? -32603, message: err.message ?? 'error' } }),
        );
    });
  });
  return server;
}
