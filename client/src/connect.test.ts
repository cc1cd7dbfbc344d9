import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WireEvent } from '@hermes/core/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DaemonClient } from './client.js';
import { connect, findDaemon } from './connect.js';
import { DaemonConnectError, NotConnectedError, RpcCallError } from './errors.js';
import { startTestServer, type TestServer } from './testing/test-server.js';
import { waitFor } from './testing/wait.js';

let root: string;
const servers: TestServer[] = [];
const clients: DaemonClient[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hermes-client-'));
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.socket.terminate();
  for (const s of servers.splice(0)) await s.close();
  await rm(root, { recursive: true, force: true });
});

async function server(): Promise<TestServer> {
  const s = await startTestServer();
  servers.push(s);
  return s;
}

async function writeDiscovery(s: TestServer, pid = process.pid): Promise<void> {
  const d = { pid, port: s.port, token: s.token, version: '1', epoch: s.epoch, started_at: 'now' };
  await writeFile(join(root, 'tui-gateway.json'), JSON.stringify(d));
}

async function open(...args: Parameters<typeof connect>): Promise<DaemonClient> {
  const c = await connect(...args);
  clients.push(c);
  return c;
}

describe('connect', () => {
  it('reads the discovery file under the root and initializes with the given client facts', async () => {
    const s = await server();
    await writeDiscovery(s);
    const c = await open({ root }, { name: 'tester', version: '2.0', instanceId: 'win-1', profile: 'work' });
    expect(c.server).toMatchObject({ epoch: 'epoch-1', profile: 'work' });
    const conn = await s.waitForConns(1);
    expect(conn.requests[0]).toEqual({
      id: 1,
      method: 'initialize',
      params: {
        client: { name: 'tester', version: '2.0', instance_id: 'win-1' },
        capabilities: { approvals: false },
        profile: 'work',
      },
    });
    expect(conn.headers.authorization).toBe(`Bearer ${s.token}`);
  });

  it('names why no daemon can be reached from the root', async () => {
    const err = (p: Promise<unknown>): Promise<unknown> => p.catch((e: unknown) => e);
    expect(await err(open({ root }, { name: 'x' }))).toMatchObject({
      name: 'DaemonConnectError',
      reason: 'not_running',
      message: expect.stringContaining('no daemon running') as unknown,
    });
    const s = await server();
    await writeDiscovery(s, 2 ** 22 + 12345);
    expect(await err(open({ root }, { name: 'x' }))).toMatchObject({ reason: 'stale' });
    await writeFile(join(root, 'tui-gateway.json'), JSON.stringify({ pid: 1, port: 'x' }));
    const invalid = await err(open({ root }, { name: 'x' }));
    expect(invalid).toBeInstanceOf(DaemonConnectError);
    expect(invalid).toMatchObject({
      reason: 'invalid_discovery',
      message: expect.stringMatching(/"port"/) as unknown,
    });
    expect(() => findDaemon(root)).toThrow(DaemonConnectError);
  });

  it('starts the daemon through the injected starter when none runs, then connects to it', async () => {
    const s = await server();
    let started = 0;
    const c = await open(
      { root },
      {
        name: 'x',
        start: async () => {
          started++;
          await writeDiscovery(s);
        },
      },
    );
    expect(started).toBe(1);
    expect(c.state).toBe('connected');
  });

  it('reports a refused upgrade with its HTTP status', async () => {
    const http: Server = createServer();
    http.on('upgrade', (_req, socket) =>
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 9\r\n\r\nforbidden'),
    );
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    try {
      const port = (http.address() as AddressInfo).port;
      const err = await connect({ port, token: 't' }, { name: 'x' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DaemonConnectError);
      expect(err).toMatchObject({
        reason: 'refused',
        status: 403,
        message: 'upgrade refused: 403 forbidden',
      });
    } finally {
      http.close();
    }
  });

  it('sends extra headers, another authorization, or none, and can skip initialize', async () => {
    const s = await server();
    const c = await open(
      { port: s.port, token: s.token },
      { name: 'x', initialize: false, headers: { Origin: 'http://localhost:1' } },
    );
    expect(c.server).toBeNull();
    s.handlers.set('echo', (p) => p);
    expect(await c.requestRaw('echo', { a: 1 })).toEqual({ a: 1 });
    expect(s.conns[0]!.requests.map((r) => r.method)).toEqual(['echo']);
    expect(s.conns[0]!.headers.origin).toBe('http://localhost:1');
    expect(await c.initialize()).toMatchObject({ epoch: 'epoch-1', profile: 'default' });
    expect(c.server?.connection_id).toBe('c-1');
    expect(s.conns[0]!.requests.map((r) => r.method)).toEqual(['echo', 'initialize']);
    // the test server closes a connection without the right token right after the upgrade
    const anon = await open(
      { port: s.port, token: s.token },
      { name: 'x', initialize: false, authorization: null },
    );
    expect(await anon.closed).toEqual({ code: 4001, reason: 'unauthorized' });
  });

  it('without reconnect, a drop closes the client for good: iterators end, requests fail', async () => {
    const s = await server();
    s.handlers.set('session.list', () => new Promise(() => {}));
    const c = await open({ port: s.port, token: s.token }, { name: 'x' });
    const conn = await s.waitForConns(1);
    const seen: WireEvent[] = [];
    const iterate = (async () => {
      for await (const ev of c.events()) seen.push(ev);
    })();
    const typed: string[] = [];
    c.onEventType('message.delta', (ev) => typed.push(String(ev.payload.text)));
    const delta = c.waitForEvent((e) => e.type === 'message.delta');
    const frame = c.waitForFrame((f) => f.method === 'event');
    const pending = c.request('session.list', {});
    conn.event('turn.start', 's', 1);
    conn.event('message.delta', 's', 2, { text: 'hi' });
    expect((await delta).seq).toBe(2);
    expect((await frame).params).toMatchObject({ type: 'turn.start' });
    await waitFor(() => seen.length === 2);
    conn.ws.close(4005, 'bye');
    expect(await c.closed).toEqual({ code: 4005, reason: 'bye' });
    await iterate;
    expect(seen.map((e) => e.seq)).toEqual([1, 2]);
    expect(typed).toEqual(['hi']);
    await expect(pending).rejects.toThrow(/connection closed \(4005 bye\)/);
    expect(c.isClosed).toBe(true);
    expect(c.state).toBe('disconnected');
    await expect(c.request('ping')).rejects.toBeInstanceOf(NotConnectedError);
  });

  it('rejects with the error answer, and close() waits for the socket to close', async () => {
    const s = await server();
    const c = await open({ port: s.port, token: s.token }, { name: 'x' });
    const err = await c.requestRaw('nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcCallError);
    expect(err).toMatchObject({ code: -32601, method: 'nope' });
    await c.close();
    expect(c.isClosed).toBe(true);
    expect((await c.closed).code).toBe(1000);
  });

  it('fails fast when the socket cannot be opened within the budget', async () => {
    const http: Server = createServer();
    http.on('upgrade', () => {}); // never answers
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    try {
      const port = (http.address() as AddressInfo).port;
      const err = await connect({ port, token: 't' }, { name: 'x', connectTimeoutMs: 50 }).catch(
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ name: 'DaemonConnectError', reason: 'timeout' });
      http.closeAllConnections();
    } finally {
      http.close();
    }
  });
});
