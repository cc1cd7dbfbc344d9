import type { WireEvent } from '@hermes/core/protocol';
import { EVENT_NOTIFICATION, SERVER_REQUEST_ID_PREFIX } from '@hermes/core/constants';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/test-server.js';
import { waitFor } from './testing/wait.js';
import { DropServerRequest, NotConnectedError, RpcCallError } from './errors.js';
import { DaemonClient, EVENT_METHOD, type DaemonClientOptions } from './client.js';
import { NO_REPLY } from './server-requests.js';
import type { AttachResult, ConnectionState } from './types.js';

const servers: TestServer[] = [];
const clients: DaemonClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) void c.close();
  for (const s of servers.splice(0)) await s.close();
});

async function server(opts: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(opts);
  servers.push(s);
  return s;
}

function client(s: TestServer, extra: Partial<DaemonClientOptions> = {}): DaemonClient {
  const c = new DaemonClient({
    endpoint: { url: s.url, token: s.token },
    name: 'hermes-tui',
    version: '1.2.3',
    capabilities: { approvals: true, clarify: true },
    reconnect: true,
    backoff: { initialMs: 10, maxMs: 40 },
    ...extra,
  });
  clients.push(c);
  return c;
}

function snapshot(sessionId: string, seq: number, epoch = 'epoch-1'): AttachResult {
  return {
    kind: 'snapshot',
    session: {
      id: sessionId,
      profile: 'default',
      title: null,
      source: 'tui',
      model: null,
      cwd: null,
      started_at: 0,
      ended_at: null,
      message_count: 0,
      state: 'active',
    },
    messages: [],
    has_more: false,
    inflight: null,
    queued: [],
    open_requests: [],
    seq,
    epoch,
  };
}

describe('DaemonClient', () => {
  it('uses the protocol constants', () => {
    expect(EVENT_METHOD).toBe(EVENT_NOTIFICATION);
    expect(SERVER_REQUEST_ID_PREFIX).toBe('srq-');
  });

  it('handshakes with the bearer token and initialize params, then makes typed calls', async () => {
    const s = await server();
    s.handlers.set('session.list', () => ({ sessions: [] }));
    const c = client(s, { profile: 'work' });
    const states: ConnectionState[] = [];
    c.on('state', (st) => states.push(st));
    const init = await c.connect();
    expect(init.profile).toBe('work');
    const conn = await s.waitForConns(1);
    expect(conn.requests[0]).toMatchObject({
      method: 'initialize',
      params: {
        client: { name: 'hermes-tui', version: '1.2.3' },
        capabilities: { approvals: true, clarify: true },
        profile: 'work',
      },
    });
    expect(await c.request('session.list', { limit: 5 })).toEqual({ sessions: [] });
    expect(states).toEqual(['connecting', 'connected']);
    expect(c.state).toBe('connected');
  });

  it('rejects a call with the JSON-RPC error code', async () => {
    const s = await server();
    s.handlers.set('session.attach', () => {
      throw { code: -32001, message: 'no session "x"' };
    });
    const c = client(s);
    await c.connect();
    const err = await c.request('session.attach', { session_id: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcCallError);
    expect(err).toMatchObject({ code: -32001, method: 'session.attach' });
  });

  it('fails to connect with a wrong token and calls fail while disconnected', async () => {
    const s = await server();
    const c = new DaemonClient({ endpoint: { url: s.url, token: 'wrong' }, name: 'x', version: '1' });
    clients.push(c);
    await expect(c.connect()).rejects.toBeInstanceOf(Error);
    expect(c.state).toBe('disconnected');
    await expect(c.request('ping', {})).rejects.toBeInstanceOf(NotConnectedError);
  });

  it('delivers events after the attach result, in order and without duplicates', async () => {
    const s = await server();
    let release!: () => void;
    s.handlers.set('session.attach', async (_p, conn) => {
      // events racing ahead of the attach result
      conn.event('message.delta', 's1', 5, { text: 'old' });
      conn.event('message.delta', 's1', 6, { text: 'new' });
      await new Promise<void>((r) => (release = r));
      return snapshot('s1', 5);
    });
    const c = client(s);
    await c.connect();
    const log: string[] = [];
    c.on('attach', (r, info) => log.push(`attach:${r.kind}:${info.reason}`));
    c.on('event', (ev: WireEvent) => log.push(`event:${ev.seq}`));
    const attached = c.attach('s1');
    await waitFor(() => release);
    release();
    await attached;
    const conn = s.conns[0]!;
    conn.event('message.delta', 's1', 6, { text: 'dup' });
    conn.event('message.delta', 's1', 7, { text: 'x' });
    await waitFor(() => log.includes('event:7'));
    expect(log).toEqual(['attach:snapshot:attach', 'event:6', 'event:7']);
    expect(c.lastSeq('s1')).toBe(7);
  });

  it('answers server requests with the handler result, or an error, or nothing when dropped', async () => {
    const s = await server();
    const c = client(s);
    c.onServerRequest('approval.request', async (p) => {
      if (p.command === 'drop') throw new DropServerRequest();
      if (p.command === 'boom') throw new Error('kaput');
      if (p.command === 'no-reply') return NO_REPLY;
      return { choice: 'once' };
    });
    c.onServerRequest('clarify.request', (p, ctx) => ({ answer: `${p.question}:${String(ctx.rpcId)}` }));
    await c.connect();
    const conn = await s.waitForConns(1);
    const req = (id: string, method: string, params: Record<string, unknown>): void =>
      conn.send({ jsonrpc: '2.0', id, method, params });
    req('srq-1', 'approval.request', {
      session_id: 's',
      request_id: 'a1',
      command: 'rm -rf x',
      description: 'd',
      choices: [],
    });
    req('srq-2', 'clarify.request', { session_id: 's', request_id: 'q1', question: 'colour?' });
    req('srq-3', 'approval.request', {
      session_id: 's',
      request_id: 'a2',
      command: 'boom',
      description: '',
      choices: [],
    });
    req('srq-4', 'approval.request', {
      session_id: 's',
      request_id: 'a3',
      command: 'drop',
      description: '',
      choices: [],
    });
    req('srq-5', 'unknown.request', {});
    req('srq-6', 'approval.request', {
      session_id: 's',
      request_id: 'a4',
      command: 'no-reply',
      description: '',
      choices: [],
    });
    req('srq-7', 'clarify.request', { session_id: 's', request_id: 'q2', question: 'late' });
    await waitFor(() => conn.answers.size >= 5);
    expect(conn.answers.get('srq-1')).toMatchObject({ id: 'srq-1', result: { choice: 'once' } });
    expect(conn.answers.get('srq-2')).toMatchObject({ result: { answer: 'colour?:srq-2' } });
    expect(conn.answers.get('srq-3')).toMatchObject({ error: { code: -32603, message: 'kaput' } });
    expect(conn.answers.get('srq-5')).toMatchObject({ error: { code: -32601 } });
    expect(conn.answers.has('srq-4')).toBe(false);
    expect(conn.answers.has('srq-6')).toBe(false);
    expect(conn.answers.get('srq-7')).toMatchObject({ result: { answer: 'late:srq-7' } });
  });

  it('reconnects after a drop and re-attaches with since_seq, replaying the missed events', async () => {
    const s = await server();
    s.handlers.set('session.attach', (p) =>
      p.since_seq === undefined
        ? snapshot('s1', 3)
        : {
            kind: 'replay',
            session: (snapshot('s1', 0) as Extract<AttachResult, { kind: 'snapshot' }>).session,
            events: [
              { type: 'message.delta', session_id: 's1', seq: 5, payload: { text: 'b' } },
              { type: 'message.delta', session_id: 's1', seq: 6, payload: { text: 'c' } },
            ],
            open_requests: [],
            seq: 6,
            epoch: 'epoch-1',
          },
    );
    const c = client(s);
    const states: ConnectionState[] = [];
    c.on('state', (st) => states.push(st));
    const attaches: Array<{ kind: string; reason: string }> = [];
    c.on('attach', (r, info) => attaches.push({ kind: r.kind, reason: info.reason }));
    await c.connect();
    await c.attach('s1');
    s.conns[0]!.event('message.delta', 's1', 4, { text: 'a' });
    await waitFor(() => c.lastSeq('s1') === 4);
    s.conns[0]!.ws.terminate();
    await waitFor(() => attaches.length === 2);
    const conn2 = await s.waitForConns(2);
    expect(conn2.requests.find((r) => r.method === 'session.attach')?.params).toEqual({
      session_id: 's1',
      since_seq: 4,
    });
    expect(attaches[1]).toEqual({ kind: 'replay', reason: 'reattach' });
    expect(c.lastSeq('s1')).toBe(6);
    expect(states).toContain('reconnecting');
    expect(states.at(-1)).toBe('connected');
  });

  it('re-attaches with a full snapshot when the daemon restarted (new epoch, new port)', async () => {
    const s1 = await server({ epoch: 'e1' });
    s1.handlers.set('session.attach', () => snapshot('s1', 40, 'e1'));
    let current = s1;
    const c = client(s1, { endpoint: async () => ({ url: current.url, token: current.token }) });
    const connected: boolean[] = [];
    c.on('connected', (_i, info) => connected.push(info.epochChanged));
    await c.connect();
    await c.attach('s1');
    await s1.close();
    servers.splice(servers.indexOf(s1), 1);
    const s2 = await server({ epoch: 'e2', token: 'other' });
    s2.handlers.set('session.attach', () => snapshot('s1', 2, 'e2'));
    current = s2;
    const conn = await s2.waitForConns(1);
    await waitFor(() => conn.requests.some((r) => r.method === 'session.attach'));
    expect(conn.requests.find((r) => r.method === 'session.attach')?.params).toEqual({ session_id: 's1' });
    await waitFor(() => c.lastSeq('s1') === 2);
    expect(connected).toEqual([false, true]);
  });

  it('drops a connection whose pings go unanswered, then reconnects', async () => {
    const s = await server();
    const c = client(s, { pingIntervalMs: 20, pingTimeoutMs: 30 });
    const states: ConnectionState[] = [];
    c.on('state', (st) => states.push(st));
    await c.connect();
    s.ignorePings = true;
    await waitFor(() => states.includes('reconnecting'));
    s.ignorePings = false;
    await waitFor(() => states.at(-1) === 'connected' && s.conns.length >= 2);
    expect(s.conns[0]!.requests.some((r) => r.method === 'ping')).toBe(true);
  });

  it('keeps retrying the first connect with retry: true until the daemon is up', async () => {
    const probe = await server();
    const port = probe.port;
    await probe.close();
    servers.splice(0);
    const c = new DaemonClient({
      endpoint: { url: `ws://127.0.0.1:${port}`, token: 'secret' },
      name: 'x',
      version: '1',
      reconnect: true,
      backoff: { initialMs: 10, maxMs: 20 },
    });
    clients.push(c);
    const attempts: number[] = [];
    c.on('state', (_st, info) => info.attempt && attempts.push(info.attempt));
    const done = c.connect({ retry: true });
    await waitFor(() => attempts.length >= 2);
    await server({ port });
    await expect(done).resolves.toMatchObject({ epoch: 'epoch-1' });
  });

  it('does not retry a handshake the daemon refused (an unknown profile), even with retry: true', async () => {
    const s = await server();
    s.handlers.set('initialize', (params) => {
      if (params.profile === 'nosuch') throw { code: -32004, message: 'no profile named "nosuch"' };
      return {
        server: { name: 'test', version: '0' },
        epoch: s.epoch,
        connection_id: 'c',
        profile: 'default',
      };
    });
    const c = client(s, { backoff: { initialMs: 5, maxMs: 10 } });
    await c.connect();
    const err = await c.switchProfile('nosuch').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcCallError);
    expect((err as RpcCallError).message).toContain('nosuch');
    expect(c.state).toBe('disconnected');
    // one refused handshake, no retry loop behind it
    await new Promise((r) => setTimeout(r, 50));
    expect(s.conns.length).toBe(2);
  });

  it('a second switch supersedes the first: one socket stays open', async () => {
    const s = await server();
    let held: (() => void) | undefined;
    s.handlers.set('initialize', (params) => {
      const result = {
        server: { name: 'test', version: '0' },
        epoch: s.epoch,
        connection_id: `c-${s.conns.length}`,
        profile: (params.profile as string | undefined) ?? 'default',
      };
      // the first switch's handshake hangs until the second switch has finished
      if (params.profile === 'slow') return new Promise((resolve) => (held = () => resolve(result)));
      return result;
    });
    const c = client(s);
    await c.connect();
    const first = c.switchProfile('slow').catch((e: unknown) => e);
    await waitFor(() => held !== undefined);
    const second = await c.switchProfile('work');
    expect(second.profile).toBe('work');
    held!();
    expect(await first).toBeInstanceOf(NotConnectedError);
    await waitFor(() => s.conns.filter((x) => x.ws.readyState === x.ws.OPEN).length === 1);
    expect(c.server?.profile).toBe('work');
  });

  it('switches profile by re-handshaking and close() rejects pending calls', async () => {
    const s = await server();
    s.handlers.set('session.list', () => new Promise(() => {}));
    const c = client(s);
    await c.connect();
    const init = await c.switchProfile('work');
    expect(init.profile).toBe('work');
    const conn = await s.waitForConns(2);
    expect(conn.requests[0]?.params.profile).toBe('work');
    const pending = c.request('session.list', {});
    void c.close();
    await expect(pending).rejects.toBeInstanceOf(NotConnectedError);
    expect(c.state).toBe('disconnected');
  });
});
