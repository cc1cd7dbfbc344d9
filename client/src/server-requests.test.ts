import { describe, expect, it } from 'vitest';
import { DropServerRequest } from './errors.js';
import type { ReplyBody } from './rpc-socket.js';
import { NO_REPLY, ServerRequestHandlers } from './server-requests.js';

/** Dispatches one request and collects what is replied once its handler settled. */
async function answer(h: ServerRequestHandlers, method: string, params: unknown = {}): Promise<ReplyBody[]> {
  const replies: ReplyBody[] = [];
  h.dispatch('srq-1', method, params, (b) => replies.push(b));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return replies;
}

const approval = {
  session_id: 's',
  request_id: 'r',
  kind: 'approval',
  command: 'ls',
  description: '',
  choices: [],
};

describe('ServerRequestHandlers', () => {
  it('replies with the handler of the method, given its params and the rpc id', async () => {
    const h = new ServerRequestHandlers();
    h.set('approval.request', (p, ctx) => ({
      choice: p.request_id === 'r' && ctx.rpcId === 'srq-1' ? 'once' : 'deny',
    }));
    expect(await answer(h, 'approval.request', approval)).toEqual([{ result: { choice: 'once' } }]);
  });

  it('sends nothing for NO_REPLY or DropServerRequest, -32603 for a failure, -32601 without a handler', async () => {
    const h = new ServerRequestHandlers();
    h.set('approval.request', () => NO_REPLY);
    h.set('clarify.request', () => Promise.reject(new DropServerRequest()));
    expect(await answer(h, 'approval.request', approval)).toEqual([]);
    expect(await answer(h, 'clarify.request')).toEqual([]);
    h.set('clarify.request', () => {
      throw new Error('kaput');
    });
    expect(await answer(h, 'clarify.request')).toEqual([{ error: { code: -32603, message: 'kaput' } }]);
    expect(await answer(h, 'other.request')).toEqual([
      { error: { code: -32601, message: 'method not supported by this client: other.request' } },
    ]);
  });

  it('a removal takes away only the handler it was returned for', async () => {
    const h = new ServerRequestHandlers();
    const offFirst = h.set('clarify.request', () => ({ answer: 'first' }));
    h.set('clarify.request', () => ({ answer: 'second' }));
    offFirst();
    expect(await answer(h, 'clarify.request')).toEqual([{ result: { answer: 'second' } }]);
    const offSecond = h.set('clarify.request', () => ({ answer: 'third' }));
    offSecond();
    expect(await answer(h, 'clarify.request')).toMatchObject([{ error: { code: -32601 } }]);
  });
});
