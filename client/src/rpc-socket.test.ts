import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { CallTimeoutError, NotConnectedError, RpcCallError } from './errors.js';
import { RpcSocket, type CloseInfo } from './rpc-socket.js';
import { waitFor } from './testing/wait.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A raw server and one RpcSocket connected to it; `peer` is the server's side of the socket. */
async function pair() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  cleanups.push(() => new Promise((r) => wss.close(r)));
  const peerP = new Promise<WebSocket>((r) => wss.once('connection', (ws) => r(ws)));
  const seen = { notifications: [] as unknown[], frames: [] as unknown[], closed: null as CloseInfo | null };
  const requests: Array<{ method: string; reply: (b: { result: unknown }) => void }> = [];
  const sock = new RpcSocket(
    {
      url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
      headers: { Authorization: 'Bearer t' },
      handshakeTimeoutMs: 2_000,
      maxPayload: 0,
    },
    {
      onNotification: (method, params) => seen.notifications.push({ method, params }),
      onRequest: (_id, method, _params, reply) => requests.push({ method, reply }),
      onFrame: (f) => seen.frames.push(f),
      onClose: (info) => (seen.closed = info),
    },
  );
  cleanups.push(() => sock.terminate());
  await sock.opened();
  const peer = await peerP;
  const received: Array<Record<string, unknown>> = [];
  peer.on('message', (d) => received.push(JSON.parse(d.toString()) as Record<string, unknown>));
  return { sock, peer, seen, requests, received };
}

describe('RpcSocket', () => {
  it('matches answers to requests, with the method on an error answer', async () => {
    const { sock, peer, received } = await pair();
    const ok = sock.request('ping', undefined, 0);
    const bad = sock.request('nope', { a: 1 }, 0);
    await waitFor(() => received.length === 2);
    expect(received[0]).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(received[1]).toEqual({ jsonrpc: '2.0', id: 2, method: 'nope', params: { a: 1 } });
    peer.send(
      JSON.stringify({ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'no', data: { x: 1 } } }),
    );
    peer.send(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { pong: true } }));
    expect(await ok).toEqual({ pong: true });
    const err = await bad.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcCallError);
    expect(err).toMatchObject({ method: 'nope', code: -32601, message: 'no', data: { x: 1 } });
  });

  it('handles a batch, ignores binary frames and invalid JSON, and answers server requests', async () => {
    const { peer, seen, requests, received } = await pair();
    peer.send(Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'event', params: 'binary' })), {
      binary: true,
    });
    peer.send('{not json');
    peer.send(
      JSON.stringify([
        { jsonrpc: '2.0', method: 'event', params: { n: 1 } },
        { jsonrpc: '2.0', id: 'srq-1', method: 'clarify.request', params: {} },
      ]),
    );
    await waitFor(() => requests.length === 1);
    expect(seen.notifications).toEqual([{ method: 'event', params: { n: 1 } }]);
    expect(seen.frames).toHaveLength(2);
    requests[0]!.reply({ result: { answer: 'x' } });
    await waitFor(() => received.length === 1);
    expect(received[0]).toEqual({ jsonrpc: '2.0', id: 'srq-1', result: { answer: 'x' } });
  });

  it('times a request out, and rejects pending ones with the close code and reason', async () => {
    const { sock, peer, seen } = await pair();
    await expect(sock.request('slow', {}, 20)).rejects.toBeInstanceOf(CallTimeoutError);
    const pending = sock.request('never', {}, 0);
    peer.close(4002, 'bye');
    await expect(pending).rejects.toThrow('connection closed (4002 bye)');
    await waitFor(() => seen.closed);
    expect(seen.closed).toEqual({ code: 4002, reason: 'bye' });
    expect(sock.closed).toEqual({ code: 4002, reason: 'bye' });
    await expect(sock.request('late', {}, 0)).rejects.toBeInstanceOf(NotConnectedError);
  });
});
