// The Anthropic dialect of the fake model server: the exact named-event sequence on the wire, and
// the real @anthropic-ai/sdk reading it (raw events and the final message).
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const root = (s: FakeModelServer) => s.url.replace(/\/v1$/, '');
const body = {
  model: 'claude-t',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'hi' }],
  stream: true,
};

describe('fake model server, Anthropic dialect', () => {
  it('sends the named events in Anthropic order', async () => {
    server = await startFakeModelServer({
      script: [
        { reasoning: 'think', text: 'Hi!', toolCalls: [{ name: 'x', arguments: { a: 1 } }], chunkSize: 100 },
      ],
    });
    const res = await fetch(`${root(server)}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify(body),
    });
    const raw = await res.text();
    const events = [...raw.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expect(events).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const deltas = [...raw.matchAll(/"delta":\{"type":"(\w+)"/g)].map((m) => m[1]);
    expect(deltas).toEqual(['thinking_delta', 'signature_delta', 'text_delta', 'input_json_delta']);
    expect(raw).toContain('"stop_reason":"tool_use"');
    expect(server.requests[0]!.headers['x-api-key']).toBe('k');
  });

  it('is read by the real SDK, and answers errors in Anthropic shape with retry-after', async () => {
    server = await startFakeModelServer({
      script: [
        { text: 'Hello', reasoning: 'r', signature: 'S1' },
        { error: { status: 429, retryAfter: 5 } },
        { error: { status: 529 } },
      ],
    });
    const sdk = new Anthropic({ apiKey: 'k', baseURL: root(server), maxRetries: 0, logLevel: 'off' });
    const msg = await sdk.messages
      .stream({ model: 'claude-t', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage();
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: 'r', signature: 'S1' },
      expect.objectContaining({ type: 'text', text: 'Hello' }),
    ]);
    expect(msg.stop_reason).toBe('end_turn');
    const limited = await sdk.messages
      .create({ model: 'claude-t', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect((limited as InstanceType<typeof Anthropic.RateLimitError>).headers.get('retry-after')).toBe('5');
    const overloaded = await sdk.messages
      .create({ model: 'claude-t', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(overloaded).toMatchObject({ status: 529, type: 'overloaded_error' });
  });

  it('an error event mid-stream makes the SDK throw', async () => {
    server = await startFakeModelServer({
      script: [{ text: 'par', streamError: { type: 'overloaded_error' } }],
    });
    const sdk = new Anthropic({ apiKey: 'k', baseURL: root(server), maxRetries: 0, logLevel: 'off' });
    const stream = await sdk.messages.create({
      ...body,
      stream: true,
    } as Anthropic.MessageCreateParamsStreaming);
    const seen: string[] = [];
    const err = await (async () => {
      for await (const ev of stream) seen.push(ev.type);
    })().catch((e: unknown) => e);
    expect(seen).toContain('content_block_delta');
    expect(err).toMatchObject({ type: 'overloaded_error' });
  });
});
