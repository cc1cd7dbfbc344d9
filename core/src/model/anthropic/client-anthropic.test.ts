// The model client on the Anthropic Messages wire, through the real @anthropic-ai/sdk against the
// scripted server's Anthropic dialect (tests/support/fake-model-anthropic.ts): tool round trip,
// thinking as reasoning, cache breakpoints, retries, key pools and the auth header.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema, type HermesConfig } from '../../config/schema.js';
import { startFakeModelServer, type FakeModelServer } from '../../../../tests/support/fake-model-server.js';
import { createModelClient, type ModelClientOptions } from '../client.js';
import { ModelError } from '../errors.js';
import type { ChatMessage, ToolSchema } from '../types.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function server(opts: Parameters<typeof startFakeModelServer>[0] = {}): Promise<FakeModelServer> {
  const s = await startFakeModelServer(opts);
  servers.push(s);
  return s;
}

const anthropicConfig = (url: string, extra: Record<string, unknown> = {}): HermesConfig =>
  ConfigSchema.parse({
    model: { provider: 'anthropic', base_url: url, default: 'claude-sonnet-4-5', ...extra },
  });

function client(opts: Partial<ModelClientOptions> & { config: HermesConfig }) {
  return createModelClient({
    secrets: { ANTHROPIC_API_KEY: 'sk-ant-test-1' },
    env: {},
    sleep: async () => {},
    random: () => 0.5,
    ...opts,
  });
}

const readFile: ToolSchema = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
};

/** Every `cache_control` marker of a recorded Anthropic body, as `system[i]` / `messages[i][j]`. */
function breakpoints(body: {
  system?: Array<Record<string, unknown>>;
  messages: Array<{ content: Array<Record<string, unknown>> }>;
}): string[] {
  const out: string[] = [];
  (body.system ?? []).forEach((b, i) => b.cache_control && out.push(`system[${i}]`));
  body.messages.forEach((m, i) =>
    m.content.forEach((b, j) => b.cache_control && out.push(`messages[${i}][${j}]`)),
  );
  return out;
}

describe('anthropic messages client', () => {
  it('posts to /v1/messages with x-api-key (no Authorization), streams text, maps usage', async () => {
    const s = await server({
      script: [
        {
          text: 'Hello from Claude.',
          chunkSize: 5,
          anthropicUsage: {
            input_tokens: 10,
            output_tokens: 4,
            cache_read_input_tokens: 100,
            cache_creation_input_tokens: 20,
          },
        },
      ],
    });
    const c = client({ config: anthropicConfig(s.url) });
    const texts: string[] = [];
    const r = await c.stream(
      {
        messages: [
          { role: 'system', content: 'You are Hermes.' },
          { role: 'user', content: 'hi' },
        ],
        tools: [],
      },
      { onText: (d) => texts.push(d) },
    );
    expect(r.text).toBe('Hello from Claude.');
    expect(texts.length).toBe(4);
    expect(r.finishReason).toBe('stop');
    expect(r.provider).toBe('anthropic');
    expect(r.usage).toEqual({
      prompt_tokens: 130,
      completion_tokens: 4,
      total_tokens: 134,
      cached_tokens: 100,
      cache_write_tokens: 20,
    });
    const rec = s.requests[0]!;
    expect(rec.path).toBe('/v1/messages');
    expect(rec.headers['x-api-key']).toBe('sk-ant-test-1');
    expect(rec.headers.authorization).toBeUndefined();
    expect(rec.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      stream: true,
      max_tokens: 16384,
      system: [{ type: 'text', text: 'You are Hermes.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
      ],
    });
    expect(rec.body.thinking).toBeUndefined();
  });

  it('a tool round trip with thinking: tool_use → our tool call → tool_result and signed thinking sent back', async () => {
    const s = await server({
      script: [
        {
          reasoning: 'I should read the file.',
          toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' }, id: 'toolu_1' }],
          signature: 'sig-abc',
          chunkSize: 4,
        },
        { echo: 'last_tool_result', prefix: 'The file says: ' },
      ],
    });
    const c = client({ config: anthropicConfig(s.url, { reasoning_effort: 'medium' }) });
    const thoughts: string[] = [];
    const messages: ChatMessage[] = [
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'what is in a.txt?' },
    ];
    const first = await c.stream({ messages, tools: [readFile] }, { onReasoning: (d) => thoughts.push(d) });
    expect(thoughts.join('')).toBe('I should read the file.');
    expect(thoughts.length).toBeGreaterThan(1);
    expect(first.reasoning).toBe('I should read the file.');
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toEqual([
      { id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
    ]);
    expect(first.thinkingBlocks).toEqual([
      { type: 'thinking', thinking: 'I should read the file.', signature: 'sig-abc' },
    ]);
    expect(s.requests[0]!.body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 8192 },
      max_tokens: 8192 + 16384,
      tools: [{ name: 'read_file', description: 'Read a file', input_schema: readFile.function.parameters }],
    });

    messages.push(
      {
        role: 'assistant',
        content: first.text,
        tool_calls: first.toolCalls,
        thinking_blocks: first.thinkingBlocks!,
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'forty-two' },
    );
    const second = await c.stream({ messages, tools: [readFile] });
    expect(second.text).toBe('The file says: forty-two');
    const body = s.requests[1]!.body;
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: 'what is in a.txt?', cache_control: { type: 'ephemeral' } }],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should read the file.', signature: 'sig-abc' },
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'read_file',
            input: { path: 'a.txt' },
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: 'forty-two',
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ]);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
  });

  it('sends half a surrogate pair in the history as U+FFFD (the API would refuse the JSON)', async () => {
    const s = await server({ script: [{ text: 'fine' }] });
    const c = client({ config: anthropicConfig(s.url) });
    const r = await c.stream({ messages: [{ role: 'user', content: 'cut \ud83d here' }], tools: [] }, {});
    expect(r.text).toBe('fine');
    expect(JSON.stringify(s.requests.at(-1)!.body)).toContain('cut \ufffd here');
  });

  it('puts cache_control on the system prompt and the last 3 messages only (4 in all)', async () => {
    const s = await server();
    const c = client({ config: anthropicConfig(s.url) });
    const messages: ChatMessage[] = [{ role: 'system', content: 'SYS' }];
    for (let i = 0; i < 4; i++) {
      messages.push({ role: 'user', content: `q${i}` }, { role: 'assistant', content: `a${i}` });
    }
    messages.push({ role: 'user', content: 'last' });
    await c.stream({ messages, tools: [] });
    const body = s.requests[0]!.body;
    expect(body.messages).toHaveLength(9);
    expect(breakpoints(body)).toEqual(['system[0]', 'messages[6][0]', 'messages[7][0]', 'messages[8][0]']);
  });

  it('529 overloaded is retried, then answered', async () => {
    const s = await server({ script: [{ error: { status: 529 } }, { text: 'back' }] });
    const retries: string[] = [];
    const c = client({ config: anthropicConfig(s.url) });
    const r = await c.stream(
      { messages: [{ role: 'user', content: 'hi' }], tools: [] },
      { onRetry: (i) => retries.push(`${i.kind}:${i.message}`) },
    );
    expect(r.text).toBe('back');
    expect(s.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatch(/^server:.*Overloaded/);
  });

  it('an error event inside the stream (overloaded_error) is retried from the start', async () => {
    const s = await server({
      script: [
        { text: 'partial', streamError: { type: 'overloaded_error', message: 'Overloaded' } },
        { text: 'whole' },
      ],
    });
    const restarts: boolean[] = [];
    const c = client({ config: anthropicConfig(s.url) });
    const r = await c.stream(
      { messages: [{ role: 'user', content: 'hi' }], tools: [] },
      { onRetry: (i) => restarts.push(i.restart ?? false) },
    );
    expect(r.text).toBe('whole');
    expect(restarts).toEqual([true]);
  });

  it('a stream that ends cleanly before message_stop (cut in a tool_use) is retried, never run half', async () => {
    const s = await server({
      script: [
        {
          toolCalls: [{ name: 'read_file', arguments: { path: '/etc/hosts' }, id: 'toolu_1' }],
          chunkSize: 4,
        },
        { text: 'whole' },
      ],
    });
    let calls = 0;
    // a proxy that closes the first response properly right after the first arguments piece
    const cutting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (++calls > 1) return res;
      const text = await res.text();
      const cut = text.indexOf('input_json_delta');
      const end = text.indexOf('\n\n', cut) + 2;
      return new Response(text.slice(0, end), { status: res.status, headers: res.headers });
    };
    const restarts: boolean[] = [];
    const c = client({ config: anthropicConfig(s.url), fetch: cutting });
    const r = await c.stream(
      { messages: [{ role: 'user', content: 'hi' }], tools: [readFile] },
      { onRetry: (i) => restarts.push(i.restart ?? false) },
    );
    expect(calls).toBe(2);
    expect(r.toolCalls).toEqual([]);
    expect(r.text).toBe('whole');
    expect(restarts).toEqual([true]);
  });

  it('429 with a single key waits as long as retry-after says', async () => {
    const s = await server({ script: [{ error: { status: 429, retryAfter: 3 } }, { text: 'ok' }] });
    const delays: number[] = [];
    const c = client({ config: anthropicConfig(s.url), sleep: async (ms) => void delays.push(ms) });
    const r = await c.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
    expect(r.text).toBe('ok');
    expect(delays).toEqual([3000]);
  });

  it('a key pool rotates on 401 and on 429, like the OpenAI path', async () => {
    const s = await server({
      script: [{ error: { status: 401 } }, { error: { status: 429 } }, { text: 'third key works' }],
    });
    const c = client({
      config: anthropicConfig(s.url),
      secrets: { ANTHROPIC_API_KEY: 'sk-ant-one', ANTHROPIC_API_KEY_2: 'sk-ant-two,sk-ant-three' },
    });
    const r = await c.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
    expect(r.text).toBe('third key works');
    expect(s.requests.map((q) => q.headers['x-api-key'])).toEqual([
      'sk-ant-one',
      'sk-ant-two',
      'sk-ant-three',
    ]);
  });

  it('401 with one key is an auth error naming ANTHROPIC_API_KEY and the .env file, never the key', async () => {
    const s = await server({ apiKey: 'the-right-key' });
    const c = client({ config: anthropicConfig(s.url), envFile: '/home/u/.hermes/.env' });
    const err = await c
      .stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ kind: 'auth', status: 401, provider: 'anthropic' });
    expect((err as Error).message).toContain('ANTHROPIC_API_KEY');
    expect((err as Error).message).toContain('/home/u/.hermes/.env');
    expect((err as Error).message).not.toContain('sk-ant-test-1');
  });

  it('400 "prompt is too long" is context_overflow; another 400 is bad_request; neither retried', async () => {
    const s = await server({
      script: [
        { error: { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' } },
        { error: { status: 400, message: 'messages: text content blocks must be non-empty' } },
      ],
    });
    const c = client({ config: anthropicConfig(s.url) });
    const ask = () =>
      c.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }).catch((e: unknown) => e);
    expect(await ask()).toMatchObject({ kind: 'context_overflow', status: 400 });
    expect(await ask()).toMatchObject({ kind: 'bad_request', status: 400 });
    expect(s.requests).toHaveLength(2);
  });

  it('lists the models of the endpoint (GET /v1/models with x-api-key)', async () => {
    const s = await server({ apiKey: 'sk-ant-test-1', models: ['claude-a', 'claude-b'] });
    const c = client({ config: anthropicConfig(s.url) });
    expect(await c.listModels()).toEqual(['claude-a', 'claude-b']);
    expect(s.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
  });

  it('an interrupt keeps the text streamed so far', async () => {
    const s = await server({ script: [{ hang: true, text: 'partial answer', chunkSize: 7 }] });
    const c = client({ config: anthropicConfig(s.url) });
    const ctl = new AbortController();
    let seen = '';
    const p = c.stream(
      { messages: [{ role: 'user', content: 'hi' }], tools: [], signal: ctl.signal },
      {
        onText: (d) => {
          seen += d;
          if (seen === 'partial answer') ctl.abort();
        },
      },
    );
    const err = await p.catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'aborted', partial: { text: 'partial answer' } });
  });

  it('an idle stream times out after model.timeout', async () => {
    const s = await server({ script: [{ hang: true, text: 'x' }, { text: 'fine' }] });
    const c = client({ config: anthropicConfig(s.url, { timeout: 0.3 }) });
    const kinds: string[] = [];
    const r = await c.stream(
      { messages: [{ role: 'user', content: 'hi' }], tools: [] },
      { onRetry: (i) => kinds.push(i.kind) },
    );
    expect(kinds).toEqual(['timeout']);
    expect(r.text).toBe('fine');
  });
});
