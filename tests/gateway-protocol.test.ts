/**
 * The daemon's wire protocol across processes: refused upgrades, garbage
 * frames, a 10 MiB frame, unknown methods and bad params each get the right answer while the
 * daemon keeps serving another client; a client that stops reading neither delays the other
 * client's events nor survives its queue overflowing; server requests round-trip and are
 * rejected when the client goes away. The daemon is gateway-test-daemon.ts in a child process.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES, RpcErrorCode } from '@hermes/core/protocol';
import { connect, type DaemonClient, DaemonConnectError, RpcCallError } from '@hermes/client';
import {
  killDaemons,
  spawnTestDaemon,
  tempRoot,
  waitFor,
  type TestDaemon,
} from './support/gateway-process.js';

let root: string;
let daemon: TestDaemon;
const clients: DaemonClient[] = [];

beforeAll(async () => {
  root = tempRoot();
  daemon = await spawnTestDaemon(root);
});
afterAll(async () => {
  for (const c of clients) c.socket.terminate();
  daemon?.child.kill('SIGTERM');
  await Promise.race([daemon?.exited, new Promise((r) => setTimeout(r, 5000))]);
  killDaemons(root);
  rmSync(root, { recursive: true, force: true });
});

async function client(name = 'test', opts: object = {}): Promise<DaemonClient> {
  const c = await connect({ root }, { name, capabilities: { approvals: true }, ...opts });
  clients.push(c);
  return c;
}

/** A second client that must keep being served after each abuse. */
let witness: DaemonClient;
async function stillServing(): Promise<void> {
  witness ??= await client('witness');
  expect((await witness.request('ping')).pong).toBe(true);
}

async function failure(p: Promise<unknown>): Promise<RpcCallError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RpcCallError);
  return e as RpcCallError;
}

async function rawError(
  c: DaemonClient,
  data: string | Buffer,
  binary = false,
): Promise<{ id: unknown; code: number; message: string }> {
  const next = c.waitForFrame((f) => 'error' in f);
  c.socket.send(data, { binary });
  const f = await next;
  return { id: f.id, ...(f.error as { code: number; message: string }) };
}

describe('refused upgrades', () => {
  it.each([
    ['no token', { authorization: null }, 401],
    ['a wrong token', { authorization: `Bearer ${'1'.repeat(64)}` }, 401],
    ['a non-loopback Origin', { headers: { Origin: 'https://attacker.example' } }, 403],
  ])('%s → HTTP %i', async (_what, opts, status) => {
    const err = await connect({ root }, { name: 'x', ...opts }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DaemonConnectError);
    expect((err as DaemonConnectError).status).toBe(status);
    await stillServing();
  });
});

describe('bad input', () => {
  it('garbage frames get -32700 / -32600 and the connection stays', async () => {
    const c = await client();
    expect(await rawError(c, '}{')).toMatchObject({ id: null, code: RpcErrorCode.ParseError });
    expect(await rawError(c, '\u0000\u0001garbage')).toMatchObject({ code: RpcErrorCode.ParseError });
    expect(await rawError(c, '{"hello":"world"}')).toMatchObject({ code: RpcErrorCode.InvalidRequest });
    expect(await rawError(c, Buffer.alloc(64, 7), true)).toMatchObject({ code: RpcErrorCode.InvalidRequest });
    expect((await c.request('ping')).pong).toBe(true);
    await stillServing();
  });

  it('a 10 MiB frame gets -32007 and the connection stays', async () => {
    const c = await client();
    const frame = JSON.stringify({
      jsonrpc: '2.0',
      id: 5,
      method: 'prompt.submit',
      params: { session_id: 's', text: 'y'.repeat(10 * 1024 * 1024) },
    });
    expect(await rawError(c, frame)).toMatchObject({ id: 5, code: RpcErrorCode.FrameTooLarge });
    expect(MAX_FRAME_BYTES).toBe(4 * 1024 * 1024);
    expect((await c.request('ping')).pong).toBe(true);
    await stillServing();
  });

  it('unknown methods get -32601, bad params -32602 with the path', async () => {
    const c = await client();
    expect((await failure(c.requestRaw('rm.everything'))).code).toBe(RpcErrorCode.MethodNotFound);
    const bad = await failure(c.requestRaw('slash.exec', { session_id: 's', command: '' }));
    expect(bad.code).toBe(RpcErrorCode.InvalidParams);
    expect(bad.message).toMatch(/^invalid params for slash\.exec: command: /);
    await stillServing();
  });

  it('anything before initialize gets -32000', async () => {
    const c = await client('early', { initialize: false });
    expect((await failure(c.request('ping'))).code).toBe(RpcErrorCode.NotInitialized);
    expect((await failure(c.request('gateway.status'))).code).toBe(RpcErrorCode.NotInitialized);
    await stillServing();
  });
});

describe('slow clients', () => {
  it('a client that stops reading does not delay another, and is closed on overflow', async () => {
    const fast = await client('burst-fast');
    const N = 400;
    /** Emits N × 64 KiB (25 MiB) and returns ms until all reached the fast client, in order. */
    const burst = async (): Promise<number> => {
      let got = 0;
      let last = 0;
      let inOrder = true;
      const off = fast.onEvent((e) => {
        if (e.type !== 'tool.progress') return;
        if (e.seq <= last) inOrder = false;
        last = e.seq;
        got++;
      });
      const started = Date.now();
      await fast.request('slash.exec', { session_id: 's1', command: `emit ${N} tool.progress 65536` });
      await waitFor(() => got === N, `${N} events at the fast client`);
      off();
      expect(inOrder).toBe(true);
      return Date.now() - started;
    };
    const alone = await burst();
    const before = (await fast.request('gateway.status')).connections;
    const slow = await client('burst-slow');
    slow.socket.pause();
    const beside = await burst();
    console.info(
      `cross-process: ${N} × 64 KiB to the fast client: ${alone} ms alone, ${beside} ms beside a stuck client`,
    );
    // The stuck client's queue overflowed (8 MiB) and the daemon closed it.
    await waitFor(
      async () => (await fast.request('gateway.status')).connections === before,
      'the slow connection to be dropped',
    );
    slow.socket.resume();
    expect([4008, 1006]).toContain((await slow.closed).code);
    await stillServing();
  });
});

describe('server requests', () => {
  it('round-trip, and reject when the client closes', async () => {
    const asker = await client('asker');
    const answerer = await client('answerer');
    answerer.onServerRequest('approval.request', (p) => ({
      choice: p.request_id === 'r1' ? 'session' : 'deny',
    }));
    const ids: string[] = [];
    answerer.onFrame((f) => {
      if (f.method === 'approval.request') ids.push(String(f.id));
    });
    const others = clients.filter((c) => c !== asker && c !== answerer && !c.isClosed);
    for (const o of others) o.onServerRequest('approval.request', () => ({ choice: 'deny' }));
    const r = await asker.request('slash.exec', { session_id: 's1', command: 'ask r1' });
    expect(r.output).toContain(`${answerer.server!.connection_id}: session`);
    expect(ids[0]).toMatch(/^srq-\d+$/);

    const silent = await client('silent');
    silent.onServerRequest('approval.request', () => new Promise(() => {}));
    const pending = asker.request('slash.exec', { session_id: 's1', command: 'ask r2' });
    await silent.waitForFrame((f) => f.method === 'approval.request');
    silent.socket.terminate();
    const out = (await pending).output;
    expect(out).toMatch(
      new RegExp(
        `${silent.server!.connection_id}: rejected: connection ${silent.server!.connection_id} closed before answering approval.request srq-\\d+`,
      ),
    );
    await stillServing();
  });
});
