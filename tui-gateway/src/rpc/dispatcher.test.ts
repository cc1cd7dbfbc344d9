/**
 * The JSON-RPC dispatcher in process, with fake clients over real connections: the handshake
 * (`initialize` first and once; requests pipelined behind it wait and keep their order), the
 * error mapping of every failure, result validation, and replies to server requests.
 */
import { ConfigError } from '@hermes/core/config';
import { RpcErrorCode } from '@hermes/core/protocol';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../lifecycle/logger.js';
import { acceptInitialize, FakeClient, settle } from '../sessions/testing.js';
import { Dispatcher, MAX_WAITING_FOR_INIT } from './dispatcher.js';
import { RpcMethodError } from './types.js';

const hello = { client: { name: 'test', version: '1' }, capabilities: { approvals: true } };

/**
 * A dispatcher whose `initialize` waits for `release()` when `gated`, and fails when the
 * client's name is `refuse`.
 */
function setup(opts: { gated?: boolean; validateResults?: boolean } = {}) {
  let release!: () => void;
  const gate = opts.gated ? new Promise<void>((r) => (release = r)) : Promise.resolve();
  const dispatcher = new Dispatcher({
    log: silentLogger,
    maxFrameBytes: 4096,
    validateResults: opts.validateResults ?? true,
    initialize: async (p, conn) => {
      await gate;
      if (p.client.name === 'refuse') throw new RpcMethodError(RpcErrorCode.InvalidParams, 'refused');
      return acceptInitialize(p, conn);
    },
  });
  let n = 0;
  const client = () => new FakeClient(dispatcher, `c-${++n}`);
  const ready = async () => {
    const c = client();
    await c.call('initialize', hello);
    return c;
  };
  return { dispatcher, client, ready, release: () => release() };
}

describe('Dispatcher handshake', () => {
  it('refuses every method before initialize, and a second initialize', async () => {
    const { client } = setup();
    const c = client();
    expect((await c.raw('profile.list')).error).toMatchObject({ code: RpcErrorCode.NotInitialized });
    expect((await c.raw('initialize', hello)).result).toMatchObject({ connection_id: 'c-1' });
    expect((await c.raw('initialize', hello)).error).toMatchObject({
      code: RpcErrorCode.NotInitialized,
      message: 'already initialized',
    });
  });

  it('answers requests pipelined behind a running initialize after it, in arrival order', async () => {
    const { dispatcher, client, release } = setup({ gated: true });
    dispatcher.register('profile.list', async (_p, conn) => ({ profiles: [], active: conn.profile }));
    const c = client();
    c.send({ id: 'init', method: 'initialize', params: hello });
    c.send({ id: 'a', method: 'profile.list' });
    c.send({ id: 'b', method: 'no.such.method' });
    c.send({ id: 'c', method: 'profile.list' });
    // the unknown method is refused at once; the others wait
    await c.answerTo('b');
    await settle();
    expect(c.frames.map((f) => f.id)).toEqual(['b']);
    release();
    await c.answerTo('c');
    expect(c.frames.map((f) => f.id)).toEqual(['b', 'init', 'a', 'c']);
    expect(c.frames.find((f) => f.id === 'a')!.result).toEqual({ profiles: [], active: 'default' });
  });

  it('answers the requests behind a failed initialize with not-initialized', async () => {
    const { client, release } = setup({ gated: true });
    const c = client();
    c.send({ id: 1, method: 'initialize', params: { ...hello, client: { name: 'refuse', version: '1' } } });
    c.send({ id: 2, method: 'profile.list' });
    release();
    expect((await c.answerTo(1)).error).toMatchObject({ code: RpcErrorCode.InvalidParams });
    expect((await c.answerTo(2)).error).toMatchObject({
      code: RpcErrorCode.NotInitialized,
      message: /"initialize" before "profile.list" failed/,
    });
  });

  it(`holds at most ${MAX_WAITING_FOR_INIT} requests behind initialize`, async () => {
    const { client } = setup({ gated: true });
    const c = client();
    c.send({ id: 0, method: 'initialize', params: hello });
    for (let i = 1; i <= MAX_WAITING_FOR_INIT; i++) c.send({ id: i, method: 'profile.list' });
    const over = await c.raw('profile.list', undefined, 'over');
    expect(over.error).toMatchObject({ code: RpcErrorCode.NotInitialized, message: /more than 256/ });
    expect(c.frames).toHaveLength(1);
  });
});

describe('Dispatcher errors', () => {
  it('maps unknown methods, missing handlers and bad params', async () => {
    const { dispatcher, ready } = setup();
    let ran = 0;
    dispatcher.register('session.detach', async () => (ran++, { ok: true as const }));
    const c = await ready();
    expect((await c.raw('no.such')).error).toMatchObject({ code: RpcErrorCode.MethodNotFound });
    expect((await c.raw('profile.list')).error).toMatchObject({
      code: RpcErrorCode.MethodNotFound,
      message: /no handler/,
    });
    const bad = await c.raw('session.detach', { session_id: 42 });
    expect(bad.error).toMatchObject({
      code: RpcErrorCode.InvalidParams,
      message: /invalid params for session.detach: session_id/,
      data: { issues: [expect.objectContaining({ path: 'session_id' })] },
    });
    expect(ran).toBe(0);
  });

  it('maps handler failures: RpcMethodError, config errors, anything else', async () => {
    const { dispatcher, ready } = setup();
    dispatcher.register('session.detach', async (p) => {
      if (p.session_id === 'coded')
        throw new RpcMethodError(RpcErrorCode.SessionLocked, 'locked', { pid: 7 });
      if (p.session_id === 'config')
        throw new ConfigError('/h/config.yaml', 'not a number', 'approvals.timeout');
      throw new Error('boom');
    });
    const c = await ready();
    const detach = (session_id: string) => c.raw('session.detach', { session_id });
    expect((await detach('coded')).error).toEqual({
      code: RpcErrorCode.SessionLocked,
      message: 'locked',
      data: { pid: 7 },
    });
    expect((await detach('config')).error).toMatchObject({
      code: RpcErrorCode.ConfigInvalid,
      data: { file: '/h/config.yaml', key: 'approvals.timeout' },
    });
    expect((await detach('other')).error).toMatchObject({
      code: RpcErrorCode.InternalError,
      message: 'boom',
    });
    expect(dispatcher.inFlight).toBe(0);
  });

  it('refuses a handler result that breaks the method schema when validating results', async () => {
    const { dispatcher, ready } = setup();
    dispatcher.register('session.detach', async () => ({ ok: 'yes' }) as never);
    const c = await ready();
    expect((await c.raw('session.detach', { session_id: 's' })).error).toMatchObject({
      code: RpcErrorCode.InternalError,
      message: /returned an invalid result/,
    });
  });

  it('answers frames that are not JSON-RPC requests, and registers each method once', async () => {
    const { dispatcher, ready } = setup();
    const c = await ready();
    dispatcher.handleFrame(c.conn, Buffer.from('{not json'), false);
    dispatcher.handleFrame(c.conn, Buffer.from('x'.repeat(5000)), false);
    await settle();
    expect(c.frames.slice(1).map((f) => f.error?.code)).toEqual([
      RpcErrorCode.ParseError,
      RpcErrorCode.FrameTooLarge,
    ]);
    expect(() => dispatcher.register('initialize', async () => ({}) as never)).toThrow(
      /already has a handler/,
    );
    expect(() => dispatcher.register('nope' as never, async () => ({}) as never)).toThrow(/not a method/);
  });
});

describe('Dispatcher replies to server requests', () => {
  it('routes a response frame to the server request it answers; other responses are ignored', async () => {
    const { ready } = setup();
    const c = await ready();
    const asked = c.conn.request('clarify.request', {
      session_id: 's',
      request_id: 'q1',
      kind: 'clarify',
      expires_at: 1,
      question: 'which?',
    });
    await settle();
    const srq = c.serverRequests[0]!;
    expect(srq).toMatchObject({ method: 'clarify.request', params: { question: 'which?' } });
    c.send({ id: 'srq-unknown', result: { answer: 'x' } });
    c.reply(srq, { answer: 'this one' });
    expect(await asked).toEqual({ answer: 'this one' });
    // an error reply rejects it with the code
    const refused = c.conn.request('clarify.request', {
      session_id: 's',
      request_id: 'q2',
      kind: 'clarify',
      expires_at: 1,
      question: 'again?',
    });
    await settle();
    c.send({ id: c.serverRequests[1]!.id, error: { code: -32099, message: 'no' } });
    await expect(refused).rejects.toMatchObject({ code: -32099 });
    expect(c.frames.filter((f) => f.method === undefined)).toHaveLength(1); // only initialize's answer
  });
});
