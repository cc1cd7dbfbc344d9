// The fake model server against the real `openai` client: the wire format must be exactly what the
// SDK (raw stream and the `.stream()` helper) accepts, since every cross-process test relies on it.
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server.js';
import { spawnFakeModelServer, type SpawnedFakeModelServer } from './fake-model-remote.js';

let server: FakeModelServer | undefined;
let spawned: SpawnedFakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await spawned?.close();
  server = undefined;
  spawned = undefined;
});

const client = (url: string) => new OpenAI({ baseURL: url, apiKey: 'test-key', maxRetries: 0 });
const ask = { model: 'm1', messages: [{ role: 'user' as const, content: 'hi' }] };

async function until(cond: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('fake model server', () => {
  it('streams text in chunks with role first, finish_reason last, then usage', async () => {
    server = await startFakeModelServer({ script: [{ text: 'Hello, world!', chunkSize: 5 }] });
    const stream = await client(server.url).chat.completions.create({
      ...ask,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Hello, world!');
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBe(3);
    const finish = chunks.filter((c) => c.choices[0]?.finish_reason);
    expect(finish.map((c) => c.choices[0]!.finish_reason)).toEqual(['stop']);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.completion_tokens).toBeGreaterThan(0);
    expect(last.usage?.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens);
    expect(chunks.every((c) => c.model === 'm1')).toBe(true);
  });

  it('omits the usage chunk unless include_usage is asked for, and honours usage overrides', async () => {
    server = await startFakeModelServer({
      script: [{ text: 'a' }, { text: 'b', usage: { prompt_tokens: 7 } }],
    });
    const s1 = await client(server.url).chat.completions.create({ ...ask, stream: true });
    const c1 = [];
    for await (const c of s1) c1.push(c);
    expect(c1.some((c) => c.usage)).toBe(false);
    const s2 = await client(server.url).chat.completions.create({
      ...ask,
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage;
    for await (const c of s2) usage = c.usage ?? usage;
    expect(usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 });
  });

  it("assembles tool calls through the SDK's stream helper", async () => {
    server = await startFakeModelServer({
      script: [
        {
          text: 'Let me look.',
          toolCalls: [
            { name: 'read_file', arguments: { path: '/tmp/a.txt' } },
            { name: 'terminal', arguments: '{"command":"ls -la"}', id: 'call_custom' },
          ],
          chunkSize: 4,
        },
      ],
    });
    const runner = client(server.url).chat.completions.stream({
      ...ask,
      tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } }],
    });
    const done = await runner.finalChatCompletion();
    const choice = done.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Let me look.');
    const calls = choice.message.tool_calls!.map((c) => (c.type === 'function' ? c : null));
    expect(calls.map((c) => [c?.id, c?.function.name, c?.function.arguments])).toEqual([
      ['call_1', 'read_file', '{"path":"/tmp/a.txt"}'],
      ['call_custom', 'terminal', '{"command":"ls -la"}'],
    ]);
  });

  it('streams reasoning in delta.reasoning or delta.reasoning_content', async () => {
    server = await startFakeModelServer({
      script: [
        { reasoning: 'think', text: 'answer' },
        { reasoning: 'deep', reasoningField: 'reasoning_content', text: 'x' },
      ],
    });
    for (const [field, want] of [
      ['reasoning', 'think'],
      ['reasoning_content', 'deep'],
    ] as const) {
      const stream = await client(server.url).chat.completions.create({ ...ask, stream: true });
      let got = '';
      for await (const c of stream) {
        const delta = c.choices[0]?.delta as Record<string, unknown> | undefined;
        if (typeof delta?.[field] === 'string') got += delta[field] as string;
      }
      expect(got).toBe(want);
    }
  });

  it('answers HTTP errors with OpenAI-shaped bodies and Retry-After', async () => {
    server = await startFakeModelServer({
      script: [
        { error: { status: 429, retryAfter: 3 } },
        { error: { status: 413 } },
        { error: { status: 401, message: 'nope' } },
      ],
    });
    const c = client(server.url);
    const e429 = await c.chat.completions.create({ ...ask, stream: true }).catch((e: unknown) => e);
    expect(e429).toBeInstanceOf(OpenAI.RateLimitError);
    expect((e429 as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('3');
    const e413 = await c.chat.completions.create(ask).catch((e: unknown) => e);
    expect((e413 as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
    expect((e413 as Error).message).toMatch(/context length/);
    const e401 = await c.chat.completions.create(ask).catch((e: unknown) => e);
    expect(e401).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((e401 as Error).message).toContain('nope');
  });

  it('answers non-streaming requests with a chat.completion and lists models', async () => {
    server = await startFakeModelServer({
      script: [{ toolCalls: [{ name: 'todo', arguments: { todos: [] } }] }],
      models: ['a', 'b'],
    });
    const c = client(server.url);
    const done = await c.chat.completions.create(ask);
    expect(done.object).toBe('chat.completion');
    expect(done.choices[0]!.finish_reason).toBe('tool_calls');
    const call = done.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && call.function.name).toBe('todo');
    const list = await c.models.list();
    expect(list.data.map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('records requests, runs function and echo steps, and answers OK when the queue is empty', async () => {
    server = await startFakeModelServer({
      script: [
        (req) => ({ text: `you said ${req.body.messages.at(-1).content}` }),
        { echo: 'last_tool_result', prefix: 'R: ' },
      ],
    });
    const c = client(server.url);
    const a = await c.chat.completions.create(ask);
    expect(a.choices[0]!.message.content).toBe('you said hi');
    const b = await c.chat.completions.create({
      model: 'm1',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'x', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 't1', content: 'tool output 42' },
      ],
    });
    expect(b.choices[0]!.message.content).toBe('R: tool output 42');
    const d = await c.chat.completions.create(ask);
    expect(d.choices[0]!.message.content).toBe('OK');
    await server.waitForRequests(3, 1000);
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/v1/chat/completions'],
      ['POST', '/v1/chat/completions'],
      ['POST', '/v1/chat/completions'],
    ]);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer test-key');
    expect(server.requests[0]!.body).toMatchObject({
      model: 'm1',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(server.waitForRequests(4, 50)).rejects.toThrow(/got 3/);
  });

  it('hangs after streaming some text and notices when the client goes away', async () => {
    server = await startFakeModelServer({ script: [{ hang: true, text: 'partial' }] });
    const ac = new AbortController();
    const stream = await client(server.url).chat.completions.create(
      { ...ask, stream: true },
      { signal: ac.signal },
    );
    let text = '';
    for await (const c of stream) {
      text += c.choices[0]?.delta.content ?? '';
      if (text === 'partial') ac.abort();
    }
    expect(text).toBe('partial');
    await until(() => server!.requests[0]?.clientClosedAt !== undefined);
  });

  it('a disconnect step breaks the stream with an error', async () => {
    server = await startFakeModelServer({ script: [{ disconnect: true, text: 'cut' }] });
    const stream = await client(server.url).chat.completions.create({ ...ask, stream: true });
    const run = async () => {
      for await (const _ of stream) void _;
    };
    await expect(run()).rejects.toThrow();
  });

  it('close() ends hanging requests', async () => {
    server = await startFakeModelServer({ script: [{ hang: true }] });
    const pending = client(server.url)
      .chat.completions.create(ask)
      .catch((e: unknown) => e);
    await server.waitForRequests(1);
    await server.close();
    server = undefined;
    expect(await pending).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('runs as a separate process driven through its control routes', async () => {
    spawned = await spawnFakeModelServer({ script: [{ text: 'from file' }] });
    expect(spawned.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    await spawned.push({ echo: 'last_user', prefix: 'echo: ' });
    const c = client(spawned.url);
    const first = await c.chat.completions.create(ask);
    expect(first.choices[0]!.message.content).toBe('from file');
    const stream = await c.chat.completions.create({ ...ask, stream: true });
    let text = '';
    for await (const ch of stream) text += ch.choices[0]?.delta.content ?? '';
    expect(text).toBe('echo: hi');
    const recorded = await spawned.waitForRequests(2);
    expect(recorded[1]!.body.stream).toBe(true);
    await spawned.reset();
    expect(await spawned.requests()).toEqual([]);
  });
});
