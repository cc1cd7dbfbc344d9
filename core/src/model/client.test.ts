// The model client against the scripted fake model server (tests/support): streaming assembly,
// key rotation, retries, fallback, classification and interrupts — with an instant sleep so the
// retry policy is exercised without waiting.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema, type HermesConfig } from '../config/schema.js';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { createModelClient, type ModelClientOptions } from './client.js';
import { ModelError } from './errors.js';
import type { StreamHandlers } from './types.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function server(script: Parameters<typeof startFakeModelServer>[0] = {}): Promise<FakeModelServer> {
  const s = await startFakeModelServer(script);
  servers.push(s);
  return s;
}

const config = (raw: Record<string, unknown>): HermesConfig => ConfigSchema.parse(raw);
const user = (content: string) => ({ messages: [{ role: 'user' as const, content }], tools: [] });

/** An instant sleep that records the delays asked for. */
function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

function client(opts: Partial<ModelClientOptions> & { config: HermesConfig }) {
  return createModelClient({ secrets: {}, env: {}, sleep: async () => {}, random: () => 0.5, ...opts });
}

/** A fetch that sends requests for `from` to `to` instead (a hosted provider played by the fake). */
function redirectFetch(from: string, to: string): typeof fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return fetch(url.replace(from, to), init);
  };
}

async function rejection(p: Promise<unknown>): Promise<ModelError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelError);
  return err as ModelError;
}

describe('model client streaming', () => {
  it('streams text and reasoning to the handlers and returns text, usage and finish reason', async () => {
    const s = await server({
      script: [{ reasoning: 'Let me think.', text: 'Hello there, world.', chunkSize: 4 }],
    });
    const c = client({ config: config({ model: { provider: 'custom', base_url: s.url, default: 'm1' } }) });
    const texts: string[] = [];
    const thoughts: string[] = [];
    const r = await c.stream(user('hi'), {
      onText: (d) => texts.push(d),
      onReasoning: (d) => thoughts.push(d),
    });
    expect(texts.join('')).toBe('Hello there, world.');
    expect(texts.length).toBe(5);
    expect(thoughts.join('')).toBe('Let me think.');
    expect(r).toMatchObject({
      text: 'Hello there, world.',
      reasoning: 'Let me think.',
      finishReason: 'stop',
    });
    expect(r).toMatchObject({ toolCalls: [], model: 'm1', provider: 'custom' });
    expect(r.usage.completion_tokens).toBeGreaterThan(0);
    expect(r.usage.total_tokens).toBe(r.usage.prompt_tokens + r.usage.completion_tokens);
    const sent = s.requests[0]!;
    expect(sent.body).toMatchObject({ model: 'm1', stream: true, stream_options: { include_usage: true } });
    expect(sent.body.tools).toBeUndefined();
    expect(sent.headers.authorization).toBeUndefined(); // keyless local server
  });

  it('sends half a surrogate pair anywhere in the request as U+FFFD (the API would refuse the JSON)', async () => {
    const s = await server({ script: [{ text: 'fine' }] });
    const c = client({ config: config({ model: { provider: 'custom', base_url: s.url, default: 'm1' } }) });
    const tool = {
      type: 'function' as const,
      function: { name: 'probe', description: 'cut \ud83d', parameters: { type: 'object' } },
    };
    const r = await c.stream(
      {
        messages: [
          { role: 'user', content: 'an emoji cut in half: \ud83d and a whole one 😀' },
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: 'again \ude00' },
        ],
        tools: [tool],
      },
      {},
    );
    expect(r.text).toBe('fine');
    const sent = s.requests.at(-1)!.body as {
      messages: Array<{ content: string }>;
      tools: Array<typeof tool>;
    };
    expect(sent.messages.map((m) => m.content)).toEqual([
      'an emoji cut in half: \ufffd and a whole one 😀',
      'ok',
      'again \ufffd',
    ]);
    expect(sent.tools[0]!.function.description).toBe('cut \ufffd');
  });

  it('assembles tool calls by index and sends the tool schemas', async () => {
    const s = await server({
      script: [
        {
          text: 'Checking.',
          toolCalls: [
            { name: 'terminal', arguments: { command: 'echo hi' }, id: 'call_a' },
            { name: 'read_file', arguments: { path: '/etc/hostname', limit: 5 } },
          ],
          chunkSize: 3,
          usage: { prompt_tokens: 11, completion_tokens: 7 },
        },
      ],
    });
    const c = client({ config: config({ model: { provider: 'custom', base_url: s.url, default: 'm1' } }) });
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'terminal', description: 'run', parameters: { type: 'object' } },
      },
    ];
    const r = await c.stream({ messages: [{ role: 'user', content: 'go' }], tools });
    expect(r.finishReason).toBe('tool_calls');
    expect(r.text).toBe('Checking.');
    expect(r.toolCalls).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'terminal', arguments: '{"command":"echo hi"}' } },
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"/etc/hostname","limit":5}' },
      },
    ]);
    expect(r.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    expect(s.requests[0]!.body.tools).toEqual(tools);
  });

  it('reads reasoning from delta.reasoning_content too', async () => {
    const s = await server({
      script: [{ reasoning: 'step by step', reasoningField: 'reasoning_content', text: 'x' }],
    });
    const c = client({ config: config({ model: { provider: 'custom', base_url: s.url, default: 'm1' } }) });
    expect((await c.stream(user('q'))).reasoning).toBe('step by step');
  });

  it("uses a keyless custom server's only model when none is configured", async () => {
    const s = await server({ script: [{ text: 'hi' }], models: ['llama3.1:8b'] });
    const c = client({ config: config({ model: { provider: 'custom', base_url: s.url } }) });
    const r = await c.stream(user('q'));
    expect(r.model).toBe('llama3.1:8b');
    expect(s.requests.map((q) => q.path)).toEqual(['/v1/models', '/v1/chat/completions']);
  });

  it('marks a cache breakpoint on the system prompt for anthropic models on openrouter', async () => {
    const s = await server({ script: [{ text: 'ok' }] });
    const c = client({
      config: config({ model: { provider: 'openrouter', default: 'anthropic/claude-sonnet-4' } }),
      secrets: { OPENROUTER_API_KEY: 'sk-or-test' },
      fetch: redirectFetch('https://openrouter.ai/api/v1', s.url),
    });
    await c.stream({
      messages: [
        { role: 'system', content: 'You are Hermes.' },
        { role: 'user', content: 'hi' },
      ],
      tools: [],
    });
    const sent = s.requests[0]!;
    expect(sent.body.messages[0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'You are Hermes.', cache_control: { type: 'ephemeral' } }],
    });
    expect(sent.headers.authorization).toBe('Bearer sk-or-test');
    expect(sent.headers['x-title']).toBe('Hermes Agent');
  });
});

describe('model client recovery', () => {
  it('429 then success: rotates to the second key at once and keeps the first one cooling', async () => {
    const s = await server({
      script: [{ error: { status: 429 } }, { text: 'second key works' }, { text: 'again' }],
    });
    const retries: Parameters<NonNullable<StreamHandlers['onRetry']>>[0][] = [];
    const { delays, sleep } = recordingSleep();
    const c = client({
      config: config({
        model: { provider: 'custom', base_url: s.url, default: 'm1', api_key_env: 'FAKE_KEY' },
      }),
      secrets: { FAKE_KEY: 'key-one-aaaa', FAKE_KEY_2: 'key-two-bbbb' },
      sleep,
    });
    const r = await c.stream(user('q'), { onRetry: (i) => retries.push(i) });
    expect(r.text).toBe('second key works');
    expect(s.requests.map((q) => q.headers.authorization)).toEqual([
      'Bearer key-one-aaaa',
      'Bearer key-two-bbbb',
    ]);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 0, kind: 'rate_limit', provider: 'custom' });
    expect(retries[0]!.message).toContain('FAKE_KEY_2');
    expect(retries[0]!.message).not.toContain('key-two-bbbb');
    expect(delays).toEqual([]);
    await c.stream(user('q2'));
    expect(s.requests[2]!.headers.authorization).toBe('Bearer key-two-bbbb'); // key one cools down
  });

  it('429 then success with a single key: backs off as long as Retry-After says', async () => {
    const s = await server({ script: [{ error: { status: 429, retryAfter: 2 } }, { text: 'ok' }] });
    const { delays, sleep } = recordingSleep();
    const retries: string[] = [];
    const c = client({
      config: config({ model: { provider: 'custom', base_url: s.url, default: 'm1' } }),
      sleep,
    });
    const r = await c.stream(user('q'), { onRetry: (i) => retries.push(i.kind) });
    expect(r.text).toBe('ok');
    expect(delays).toEqual([2000]);
    expect(retries).toEqual(['rate_limit']);
  });

  it('500 repeated: retries 3 times with growing backoff, then the fallback provider answers', async () => {
    const failing = { error: { status: 500 } };
    const primary = await server({ script: [failing, failing, failing, failing] });
    const fallback = await server({ script: [{ text: 'from the fallback' }] });
    const { delays, sleep } = recordingSleep();
    const retries: Parameters<NonNullable<StreamHandlers['onRetry']>>[0][] = [];
    const c = client({
      config: config({
        model: { provider: 'custom', base_url: primary.url, default: 'main-model' },
        fallback_providers: [
          { provider: 'openai', model: 'unused' }, // no OPENAI_API_KEY: skipped
          { provider: 'custom', base_url: fallback.url, model: 'backup-model' },
        ],
      }),
      sleep,
    });
    const r = await c.stream(user('q'), { onRetry: (i) => retries.push(i) });
    expect(r).toMatchObject({ text: 'from the fallback', model: 'backup-model', provider: 'custom' });
    expect(primary.requests).toHaveLength(4);
    expect(fallback.requests).toHaveLength(1);
    expect(fallback.requests[0]!.body.model).toBe('backup-model');
    expect(delays).toEqual([750, 1500, 3000]); // equal jitter with random() = 0.5
    expect(retries.map((i) => [i.attempt, i.kind, i.delayMs])).toEqual([
      [1, 'server', 750],
      [2, 'server', 1500],
      [3, 'server', 3000],
      [4, 'server', 0],
    ]);
    expect(retries[3]!.message).toMatch(/falling back to custom \(backup-model\)/);
  });

  it('an auth error names the provider, the variable and the .env file, and is not retried', async () => {
    const s = await server({
      script: [{ error: { status: 401, message: 'Invalid API key sk-or-secret-123' } }],
    });
    const retries: unknown[] = [];
    const c = client({
      config: config({ model: { provider: 'openrouter', default: 'openai/gpt-4o' } }),
      secrets: { OPENROUTER_API_KEY: 'sk-or-secret-123' },
      envFile: '/home/u/.hermes/profiles/work/.env',
      fetch: redirectFetch('https://openrouter.ai/api/v1', s.url),
    });
    const err = await rejection(c.stream(user('q'), { onRetry: (i) => retries.push(i) }));
    expect(err).toMatchObject({ kind: 'auth', status: 401, provider: 'openrouter', retryable: false });
    expect(err.message).toContain('"openrouter"');
    expect(err.message).toContain('OPENROUTER_API_KEY');
    expect(err.message).toContain('/home/u/.hermes/profiles/work/.env');
    expect(err.message).not.toContain('sk-or-secret-123');
    expect(s.requests).toHaveLength(1);
    expect(retries).toEqual([]);
  });

  it('an auth error on the primary falls back when a fallback is configured', async () => {
    const primary = await server({ script: [{ error: { status: 401 } }] });
    const fallback = await server({ script: [{ text: 'fallback ok' }] });
    const c = client({
      config: config({
        model: { provider: 'custom', base_url: primary.url, default: 'm', api_key_env: 'K' },
        fallback_providers: [{ provider: 'custom', base_url: fallback.url }],
      }),
      secrets: { K: 'bad-key-value' },
    });
    const r = await c.stream(user('q'));
    expect(r.text).toBe('fallback ok');
    expect(fallback.requests[0]!.body.model).toBe('m'); // no model of its own: the call's model
    expect(primary.requests).toHaveLength(1);
  });

  it('413 is a context overflow: thrown at once, no retry, no fallback', async () => {
    const primary = await server({ script: [{ error: { status: 413 } }] });
    const fallback = await server();
    const retries: unknown[] = [];
    const c = client({
      config: config({
        model: { provider: 'custom', base_url: primary.url, default: 'm' },
        fallback_providers: [{ provider: 'custom', base_url: fallback.url }],
      }),
    });
    const err = await rejection(c.stream(user('q'), { onRetry: (i) => retries.push(i) }));
    expect(err).toMatchObject({ kind: 'context_overflow', status: 413, retryable: false });
    expect(primary.requests).toHaveLength(1);
    expect(fallback.requests).toHaveLength(0);
    expect(retries).toEqual([]);
  });

  it('a connection refused is a network error, retried 3 times, then thrown', async () => {
    const gone = await server();
    const url = gone.url;
    await gone.close();
    const retries: string[] = [];
    const c = client({ config: config({ model: { provider: 'custom', base_url: url, default: 'm' } }) });
    const err = await rejection(c.stream(user('q'), { onRetry: (i) => retries.push(i.kind) }));
    expect(err.kind).toBe('network');
    expect(err.message).toMatch(/ECONNREFUSED/);
    expect(retries).toEqual(['network', 'network', 'network']);
  });

  it('a stream that stalls past model.timeout is a timeout, and the retry starts over', async () => {
    const s = await server({ script: [{ hang: true, text: 'half an ans' }, { text: 'full answer' }] });
    const retries: Parameters<NonNullable<StreamHandlers['onRetry']>>[0][] = [];
    const c = client({
      config: config({ model: { provider: 'custom', base_url: s.url, default: 'm', timeout: 0.3 } }),
    });
    const r = await c.stream(user('q'), { onRetry: (i) => retries.push(i) });
    expect(r.text).toBe('full answer');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ kind: 'timeout', restart: true });
  });

  it('a server that never sends headers times out after model.timeout and is retried', async () => {
    const s = await server({ script: [{ hang: true }, { text: 'second try' }] });
    const retries: string[] = [];
    const c = client({
      config: config({ model: { provider: 'custom', base_url: s.url, default: 'm', timeout: 0.3 } }),
    });
    const r = await c.stream(user('q'), { onRetry: (i) => retries.push(i.kind) });
    expect(r.text).toBe('second try');
    expect(retries).toEqual(['timeout']);
  });

  it('no usable provider: every call says which variables to set and where', async () => {
    const c = client({ config: config({ model: { provider: 'auto', default: 'x' } }), envFile: '/h/.env' });
    const err = await rejection(c.stream(user('q')));
    expect(err.kind).toBe('auth');
    expect(err.message).toContain('OPENROUTER_API_KEY');
    expect(err.message).toContain('OPENAI_API_KEY');
    expect(err.message).toContain('/h/.env');
    expect(err.message).toContain('model.base_url');
  });
});

describe('model client interrupts', () => {
  it('abort mid-stream stops at once and carries the partial text', async () => {
    const s = await server({ script: [{ hang: true, text: 'The partial answer', chunkSize: 6 }] });
    const c = client({ config: config({ model: { provider: 'custom', base_url: s.url, default: 'm' } }) });
    const ac = new AbortController();
    let abortedAt = 0;
    let seen = '';
    const pending = c.stream(
      { ...user('q'), signal: ac.signal },
      {
        onText: (d) => {
          seen += d;
          if (seen === 'The partial answer') {
            abortedAt = Date.now();
            ac.abort();
          }
        },
      },
    );
    const err = await rejection(pending);
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(err.kind).toBe('aborted');
    expect(err.partial?.text).toBe('The partial answer');
    const deadline = Date.now() + 2000;
    while (s.requests[0]!.clientClosedAt === undefined && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(s.requests[0]!.clientClosedAt).toBeDefined(); // the connection was really dropped
  });

  it('abort before the headers arrive and abort during a backoff wait both stop at once', async () => {
    const s = await server({ script: [{ hang: true }, { error: { status: 500 } }] });
    const c = createModelClient({
      config: config({ model: { provider: 'custom', base_url: s.url, default: 'm' } }),
      secrets: {},
      env: {},
    });
    const ac1 = new AbortController();
    const p1 = c.stream({ ...user('q'), signal: ac1.signal });
    await s.waitForRequests(1);
    ac1.abort();
    expect((await rejection(p1)).kind).toBe('aborted');

    const ac2 = new AbortController();
    const started = Date.now();
    const p2 = c.stream({ ...user('q'), signal: ac2.signal }, { onRetry: () => ac2.abort() }); // real sleep (≥ 0.5 s)
    const err = await rejection(p2);
    expect(err.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(500);
  });
});
