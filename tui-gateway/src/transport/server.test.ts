/** The daemon's transport over real sockets: auth, handshake, error mapping, garbage frames. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MAX_FRAME_BYTES, RpcErrorCode } from '@hermes/core/protocol';
import { connect, type DaemonClient, DaemonConnectError, RpcCallError } from '@hermes/client';
import { startDaemon, type DaemonHandle } from '../lifecycle/daemon.js';
import { RpcMethodError } from '../rpc/types.js';

let root: string;
let daemon: DaemonHandle;
let release: () => void = () => {};
const clients: DaemonClient[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'hermes-gw-server-'));
  daemon = await startDaemon({
    root,
    version: '9.9.9',
    systemdUnitFile: null,
    validateResults: true,
    registerHandlers: (registry) => {
      registry.register('slash.exec', async ({ command }) => {
        if (command === 'missing') throw new RpcMethodError(RpcErrorCode.SessionNotFound, 'no session s1');
        if (command === 'crash') throw new Error('kaput');
        if (command === 'invalid') return { output: 42 } as never;
        if (command === 'wait') await new Promise<void>((r) => (release = r));
        return { output: `ran ${command}`, handled: true };
      });
    },
  });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await daemon.close();
  rmSync(root, { recursive: true, force: true });
});

async function client(opts: Partial<Parameters<typeof connect>[1]> = {}): Promise<DaemonClient> {
  const c = await connect({ port: daemon.port, token: daemon.token }, { name: 'test', ...opts });
  clients.push(c);
  return c;
}

async function rpcError(p: Promise<unknown>): Promise<RpcCallError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RpcCallError);
  return err as RpcCallError;
}

/** Sends a raw frame and returns the next error frame. */
async function rawError(
  c: DaemonClient,
  data: string | Buffer,
  binary = false,
): Promise<{ id: unknown; code: number; message: string }> {
  const next = c.waitForFrame((f) => 'error' in f);
  c.socket.send(data, { binary });
  const f = await next;
  const e = f.error as { code: number; message: string };
  return { id: f.id, code: e.code, message: e.message };
}

describe('upgrade', () => {
  it('refuses a missing token, a wrong token and a foreign Origin', async () => {
    const target = { port: daemon.port, token: daemon.token };
    const refused = async (opts: object): Promise<number | undefined> => {
      const err = await connect(target, { name: 't', ...opts }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DaemonConnectError);
      return (err as DaemonConnectError).status;
    };
    expect(await refused({ authorization: null })).toBe(401);
    expect(await refused({ authorization: `Bearer ${'0'.repeat(64)}` })).toBe(401);
    expect(await refused({ authorization: 'Bearer short' })).toBe(401);
    expect(await refused({ headers: { Origin: 'https://evil.example' } })).toBe(403);
    const ok = await client({ headers: { Origin: 'http://localhost:5173' } });
    expect(ok.server?.server).toEqual({ name: 'hermes-tui-gateway', version: '9.9.9' });
    const res = await fetch(`http://127.0.0.1:${daemon.port}/`);
    expect(res.status).toBe(426);
  });
});

describe('handshake', () => {
  it('answers initialize with epoch, connection id and profiles', async () => {
    const c = await client();
    expect(c.server).toMatchObject({ epoch: daemon.epoch, profile: 'default', profiles: ['default'] });
    expect(c.server?.connection_id).toMatch(/^c-/);
    expect((await c.request('ping')).pong).toBe(true);
  });

  it('answers ping while another request of the same connection is still running', async () => {
    const c = await client();
    const slow = c.request('slash.exec', { session_id: 's', command: 'wait' });
    expect((await c.request('ping')).pong).toBe(true);
    release();
    expect(await slow).toEqual({ output: 'ran wait', handled: true });
  });

  it('refuses everything before initialize, and initialize twice', async () => {
    const c = await client({ initialize: false });
    expect((await rpcError(c.request('ping'))).code).toBe(RpcErrorCode.NotInitialized);
    expect((await rpcError(c.request('session.list', {}))).code).toBe(RpcErrorCode.NotInitialized);
    await c.request('initialize', {
      client: { name: 'late', version: '1' },
      capabilities: { approvals: true },
    });
    const again = await rpcError(
      c.request('initialize', { client: { name: 'x', version: '1' }, capabilities: { approvals: true } }),
    );
    expect(again.code).toBe(RpcErrorCode.NotInitialized);
    expect((await c.request('ping')).pong).toBe(true);
  });

  it('answers requests pipelined behind initialize (same write), in order, after it', async () => {
    const c = await client({ initialize: false });
    const answers: Array<Record<string, unknown>> = [];
    c.onFrame((f) => answers.push(f));
    // one TCP write: the daemon reads all three frames before `initialize` has been answered
    const tcp = (c.socket as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
    tcp.cork();
    const init = c.request('initialize', {
      client: { name: 'pipe', version: '1' },
      capabilities: { approvals: false },
    });
    const slash = c.request('slash.exec', { session_id: 's', command: 'pipelined' });
    const ping = c.request('ping');
    tcp.uncork();
    expect((await init).server.version).toBe('9.9.9');
    expect(await slash).toEqual({ output: 'ran pipelined', handled: true });
    expect((await ping).pong).toBe(true);
    // in arrival order, `initialize` first
    expect(
      answers.map((f) =>
        Object.keys(f.result as object)
          .sort()
          .join(),
      ),
    ).toEqual(['connection_id,epoch,profile,profiles,server', 'handled,output', 'pong,time']);
  });

  it('pipelined requests behind a failed initialize get -32000 naming it', async () => {
    const c = await client({ initialize: false });
    const tcp = (c.socket as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
    tcp.cork();
    const init = c.request('initialize', {
      client: { name: 'pipe', version: '1' },
      capabilities: { approvals: false },
      profile: 'no-such-profile',
    });
    const ping = c.request('ping');
    tcp.uncork();
    expect((await rpcError(init)).code).toBe(RpcErrorCode.ProfileNotFound);
    const refused = await rpcError(ping);
    expect(refused.code).toBe(RpcErrorCode.NotInitialized);
    expect(refused.message).toMatch(/"initialize" before "ping" failed/);
  });

  it('refuses an unknown profile', async () => {
    const err = await connect(
      { port: daemon.port, token: daemon.token },
      { name: 't', profile: 'nope' },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcCallError);
    expect((err as RpcCallError).code).toBe(RpcErrorCode.ProfileNotFound);
  });
});

describe('errors', () => {
  it('maps unknown methods, unregistered methods and bad params', async () => {
    const c = await client();
    expect((await rpcError(c.requestRaw('nope.nothing'))).code).toBe(RpcErrorCode.MethodNotFound);
    expect((await rpcError(c.requestRaw('constructor'))).code).toBe(RpcErrorCode.MethodNotFound);
    const unregistered = await rpcError(c.request('session.list', {}));
    expect(unregistered.code).toBe(RpcErrorCode.MethodNotFound);
    expect(unregistered.message).toMatch(/not available/);
    const bad = await rpcError(c.requestRaw('slash.exec', { session_id: 's', command: 5 }));
    expect(bad.code).toBe(RpcErrorCode.InvalidParams);
    expect(bad.message).toMatch(/invalid params for slash\.exec: command: /);
    expect(bad.data).toEqual({ issues: [{ path: 'command', message: expect.any(String) }] });
    const missing = await rpcError(c.requestRaw('slash.exec'));
    expect(missing.message).toMatch(/\(params\)/);
    expect((await rpcError(c.requestRaw('ping', { extra: 1 }))).code).toBe(RpcErrorCode.InvalidParams);
  });

  it('maps handler failures', async () => {
    const c = await client();
    const call = (command: string) => c.request('slash.exec', { session_id: 's', command });
    expect(await call('hello')).toEqual({ output: 'ran hello', handled: true });
    expect(await rpcError(call('missing'))).toMatchObject({
      code: RpcErrorCode.SessionNotFound,
      message: 'no session s1',
    });
    expect(await rpcError(call('crash'))).toMatchObject({
      code: RpcErrorCode.InternalError,
      message: 'kaput',
    });
    const invalid = await rpcError(call('invalid'));
    expect(invalid.code).toBe(RpcErrorCode.InternalError);
    expect(invalid.message).toMatch(/returned an invalid result: output: /);
  });

  it('answers garbage frames and keeps the connection and the daemon', async () => {
    const c = await client();
    const other = await client();
    expect(await rawError(c, '{not json')).toMatchObject({ id: null, code: RpcErrorCode.ParseError });
    expect(await rawError(c, '[1,2]')).toMatchObject({ code: RpcErrorCode.InvalidRequest });
    expect(await rawError(c, '"text"')).toMatchObject({ code: RpcErrorCode.InvalidRequest });
    expect(await rawError(c, '{"jsonrpc":"1.0","id":9,"method":"ping"}')).toMatchObject({
      id: 9,
      code: RpcErrorCode.InvalidRequest,
    });
    expect(await rawError(c, Buffer.from([0, 1, 2, 3]), true)).toMatchObject({
      code: RpcErrorCode.InvalidRequest,
    });
    expect((await c.request('ping')).pong).toBe(true);
    expect((await other.request('ping')).pong).toBe(true);
  });

  it('answers a 10 MiB frame with -32007 and keeps serving', async () => {
    const c = await client();
    const other = await client();
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 77,
      method: 'slash.exec',
      params: { session_id: 's', command: 'x'.repeat(10 * 1024 * 1024) },
    });
    const e = await rawError(c, huge);
    expect(e).toMatchObject({ id: 77, code: RpcErrorCode.FrameTooLarge });
    expect(e.message).toMatch(new RegExp(`limit of ${MAX_FRAME_BYTES} bytes`));
    expect((await c.request('ping')).pong).toBe(true);
    expect((await other.request('ping')).pong).toBe(true);
  });

  it('closes with 1009 only above the hard cap, other clients unaffected', async () => {
    const c = await client();
    const other = await client();
    c.socket.send('x'.repeat(4 * MAX_FRAME_BYTES + 1));
    expect((await c.closed).code).toBe(1009);
    expect((await other.request('ping')).pong).toBe(true);
  });

  it('never answers a notification and ignores unknown answers', async () => {
    const c = await client();
    let frames = 0;
    c.onFrame(() => frames++);
    c.socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'whatever' }));
    c.socket.send(JSON.stringify({ jsonrpc: '2.0', id: 'srq-999', result: { choice: 'once' } }));
    expect((await c.request('ping')).pong).toBe(true);
    expect(frames).toBe(1);
  });
});

describe('raw socket', () => {
  it('an invalid UTF-8 text frame closes only that socket (1007)', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${daemon.port}/`, {
      headers: { Authorization: `Bearer ${daemon.token}` },
    });
    await new Promise((r) => ws.once('open', r));
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send(Buffer.from([0xff, 0xfe, 0xfd]), { binary: false });
    expect(await closed).toBe(1007);
    const other = await client();
    expect((await other.request('ping')).pong).toBe(true);
  });
});

describe('handshake timeout', () => {
  it('closes a connection that never initializes (4001)', async () => {
    const r = mkdtempSync(join(tmpdir(), 'hermes-gw-hs-'));
    const d = await startDaemon({ root: r, version: '1', systemdUnitFile: null, handshakeTimeoutMs: 100 });
    try {
      const idle = await connect({ port: d.port, token: d.token }, { name: 'idle', initialize: false });
      const ok = await connect({ port: d.port, token: d.token }, { name: 'ok' });
      expect((await idle.closed).code).toBe(4001);
      await new Promise((res) => setTimeout(res, 150));
      expect((await ok.request('ping')).pong).toBe(true);
      await ok.close();
    } finally {
      await d.close();
      rmSync(r, { recursive: true, force: true });
    }
  });
});
