/**
 * The API server driven by the official `openai` npm package the way users drive it — with the
 * SDK's defaults (2 retries, 10-minute timeout), not the test-friendly `maxRetries: 0`: every
 * call style of chat completions and responses (create, stream with `for await`, the `.stream()`
 * helpers and their final message), a failed turn that must not be run again by the SDK's
 * retries, a stream aborted mid-way (the session survives), two clients on one session at once,
 * a very long prompt, unicode both ways, and the request fields a client may send (`n`,
 * `temperature`, `max_tokens`, `stream_options`, `tools`). Run `npm run build` first.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import {
  API_KEY,
  apiRefusal,
  lastMessages,
  lastUserTexts,
  startApiServerDaemon,
} from './support/api-server-daemon.js';
import { stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let root: string;
let base: string;
/** A client with the SDK's defaults, as a user creates it. */
let client: OpenAI;

beforeAll(async () => {
  model = await startFakeModelServer();
  ({ root, base } = await startApiServerDaemon(model));
  client = new OpenAI({ baseURL: base, apiKey: API_KEY });
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await model?.close();
});

const ask = (content: string): OpenAI.ChatCompletionMessageParam[] => [{ role: 'user', content }];

/** Model calls whose last user message is `text` (how many times the agent ran that turn). */
const callsFor = (text: string): number =>
  model.requests.filter((r) => {
    const msgs = (r.body.messages ?? []) as Array<{ role: string; content: unknown }>;
    const users = msgs.filter((m) => m.role === 'user');
    return users.at(-1)?.content === text;
  }).length;

describe('api_server with the openai SDK at its defaults', () => {
  it('chat.completions: create, stream with for-await, and the .stream() helper’s final message', async () => {
    model.push({ text: 'whole answer', usage: { prompt_tokens: 7, completion_tokens: 2 } });
    const whole = await client.chat.completions.create({ model: 'hermes-agent', messages: ask('one') });
    expect(whole).toMatchObject({
      object: 'chat.completion',
      model: 'hermes-agent',
      choices: [{ index: 0, message: { role: 'assistant', content: 'whole answer' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
    });
    expect(whole.id).toMatch(/^chatcmpl-/);

    model.push({ text: 'streamed in pieces', chunkSize: 3 });
    const stream = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: ask('two'),
      stream: true,
    });
    let text = '';
    const finishes: Array<string | null> = [];
    for await (const c of stream) {
      text += c.choices[0]?.delta?.content ?? '';
      if (c.choices[0]) finishes.push(c.choices[0].finish_reason);
    }
    expect(text).toBe('streamed in pieces');
    expect(finishes.at(-1)).toBe('stop');

    // the quickstart loop indexes choices[0] of every chunk: tool progress events must allow it
    model.push(
      { text: 'Checking.', toolCalls: [{ name: 'read_file', arguments: { path: 'nope.txt' } }] },
      { text: 'Done.' },
    );
    const naive = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: ask('naive'),
      stream: true,
    });
    let naiveText = '';
    for await (const c of naive) naiveText += c.choices[0]!.delta.content ?? '';
    expect(naiveText).toBe('Checking.\n\nDone.');

    // the helper accumulates chunks into a completion; tool progress events must not upset it
    model.push(
      { text: 'Looking.', toolCalls: [{ name: 'read_file', arguments: { path: 'nope.txt' } }] },
      { text: 'Nothing there.' },
    );
    const helper = client.chat.completions.stream({ model: 'hermes-agent', messages: ask('three') });
    const deltas: string[] = [];
    helper.on('content', (delta) => deltas.push(delta));
    const final = await helper.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('Looking.\n\nNothing there.');
    expect(final.choices[0]!.finish_reason).toBe('stop');
    expect(deltas.join('')).toBe('Looking.\n\nNothing there.');
  });

  it('responses: create, stream with for-await, and responses.stream()’s final response', async () => {
    model.push({ text: 'plain response' });
    const r = await client.responses.create({ model: 'hermes-agent', input: 'four' });
    expect(r).toMatchObject({ object: 'response', status: 'completed', output_text: 'plain response' });

    model.push({ text: 'streamed response', chunkSize: 4 });
    const events = await client.responses.create({ model: 'hermes-agent', input: 'five', stream: true });
    let text = '';
    let last = '';
    for await (const e of events) {
      if (e.type === 'response.output_text.delta') text += e.delta;
      last = e.type;
    }
    expect(text).toBe('streamed response');
    expect(last).toBe('response.completed');

    model.push({ text: 'helper response', chunkSize: 5 });
    const helper = client.responses.stream({ model: 'hermes-agent', input: 'six' });
    const deltas: string[] = [];
    helper.on('response.output_text.delta', (e) => deltas.push(e.delta));
    const final = await helper.finalResponse();
    expect(final.output_text).toBe('helper response');
    expect(deltas.join('')).toBe('helper response');
    // a streamed, stored response can be read back
    expect((await client.responses.retrieve(final.id)).output_text).toBe('helper response');
    // store: false keeps nothing to read back
    model.push({ text: 'not kept' });
    const unstored = await client.responses.create({ model: 'hermes-agent', input: 'seven', store: false });
    await expect(client.responses.retrieve(unstored.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('responses: a client keeping the conversation itself sends the output back as input', async () => {
    model.push(
      { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'nope.txt' } }] },
      { text: 'It is not there.' },
    );
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'read nope.txt' }];
    const first = await client.responses.create({ model: 'hermes-agent', input, store: false });
    expect(first.output.map((o) => o.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
    ]);
    model.push({ text: 'Yes, missing.' });
    const second = await client.responses.create({
      model: 'hermes-agent',
      store: false,
      input: [
        ...input,
        ...(first.output as OpenAI.Responses.ResponseInput),
        { role: 'user', content: 'sure?' },
      ],
    });
    expect(second.output_text).toBe('Yes, missing.');
    const sent = lastMessages(model);
    expect(sent.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['read nope.txt', 'sure?']);
    expect(sent.find((m) => m.role === 'assistant')?.content).toContain('[called read_file(');
  });

  it('models.list: the shape Open WebUI and LangChain read', async () => {
    const models = await client.models.list();
    const raw = (await (
      await fetch(`${base}/models`, { headers: { authorization: `Bearer ${API_KEY}` } })
    ).json()) as {
      object: string;
      data: Array<Record<string, unknown>>;
    };
    expect(raw.object).toBe('list');
    expect(models.data).toHaveLength(1);
    const m = raw.data[0]!;
    expect(m).toMatchObject({ id: 'hermes-agent', object: 'model', owned_by: 'hermes' });
    // a real timestamp (epoch seconds), not 1970
    expect(m.created).toBeGreaterThan(1_600_000_000);
  });

  it('a failed turn is answered once: the SDK’s retries do not run the agent again', async () => {
    model.push({ error: { status: 400, message: 'the model refused this' } });
    const failed = await apiRefusal(
      client.chat.completions.create({ model: 'hermes-agent', messages: ask('fail once') }),
    );
    expect(failed.status).toBe(500);
    expect(failed.error).toMatchObject({ type: 'server_error' });
    expect(failed.headers?.get('x-should-retry')).toBe('false');
    expect(failed.message).toContain('the model refused this');
    expect(callsFor('fail once')).toBe(1);

    model.push({ error: { status: 400, message: 'refused again' } });
    const failedResponse = await apiRefusal(
      client.responses.create({ model: 'hermes-agent', input: 'fail twice' }),
    );
    expect(failedResponse.status).toBe(500);
    expect(callsFor('fail twice')).toBe(1);
  }, 30_000);

  it('an aborted stream stops its turn; the session takes the next request', async () => {
    const session = { headers: { 'X-Hermes-Session-Id': 'clients-abort' } };
    model.push({ text: 'never ending ', chunkSize: 4, hang: true });
    const abort = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'hermes-agent', messages: ask('go forever'), stream: true },
      { ...session, signal: abort.signal },
    );
    let got = '';
    try {
      for await (const c of stream) {
        got += c.choices[0]?.delta?.content ?? '';
        if (got.length >= 4) abort.abort();
      }
    } catch {
      /* the SDK may end the loop or raise an abort error */
    }
    expect(got.length).toBeGreaterThanOrEqual(4);

    model.push({ echo: 'last_user', prefix: 'still here: ' });
    const next = await client.chat.completions.create(
      { model: 'hermes-agent', messages: ask('are you there?') },
      session,
    );
    expect(next.choices[0]!.message.content).toBe('still here: are you there?');
    // the aborted turn is part of the session’s history
    expect(lastUserTexts(model)).toEqual(['go forever', 'are you there?']);
  }, 30_000);

  it('a turn that fails once its stream started: the SDK raises the error, for-await and helpers alike', async () => {
    // the stream (headers, the role chunk) is open before the model is asked; the model refuses
    model.push({ error: { status: 400, message: 'upstream refused' } });
    const stream = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: ask('fail midway'),
      stream: true,
    });
    const raised = await (async () => {
      for await (const c of stream) void c;
    })().catch((e: unknown) => e);
    expect(raised).toBeInstanceOf(OpenAI.APIError);
    expect((raised as Error).message).toContain('upstream refused');

    model.push({ error: { status: 400, message: 'refused in helper' } });
    const helper = client.chat.completions.stream({ model: 'hermes-agent', messages: ask('fail in helper') });
    await expect(helper.finalChatCompletion()).rejects.toThrow(/refused in helper/);

    model.push({ error: { status: 400, message: 'responses refused' } });
    const events = await client.responses.create({
      model: 'hermes-agent',
      input: 'fail response',
      stream: true,
    });
    const types: string[] = [];
    for await (const e of events) types.push(e.type);
    expect(types.at(-1)).toBe('response.failed');
    expect(callsFor('fail midway')).toBe(1);
  }, 30_000);

  it('a model stream that breaks and is retried: the answer is the retry’s text', async () => {
    const broken = () =>
      model.push(
        { text: 'Starting to ', chunkSize: 4, streamError: { type: 'server_error', message: 'dropped' } },
        { text: 'Fresh answer.' },
      );
    broken();
    const whole = await client.chat.completions.create({ model: 'hermes-agent', messages: ask('retry 1') });
    expect(whole.choices[0]!.message.content).toBe('Fresh answer.');
    broken();
    const response = await client.responses.create({ model: 'hermes-agent', input: 'retry 2' });
    expect(response.output_text).toBe('Fresh answer.');
    // streamed: the deltas already sent stay sent, but the item's final text is the retry's
    broken();
    const helper = client.responses.stream({ model: 'hermes-agent', input: 'retry 3' });
    const final = await helper.finalResponse();
    expect(final.output_text).toBe('Fresh answer.');
    expect((await client.responses.retrieve(final.id)).output_text).toBe('Fresh answer.');
  }, 30_000);

  it('a whole-answer request the client gives up on (its timeout) stops the turn', async () => {
    const session = { headers: { 'X-Hermes-Session-Id': 'clients-timeout' } };
    const impatient = new OpenAI({ baseURL: base, apiKey: API_KEY, maxRetries: 0, timeout: 1500 });
    model.push({ text: 'thinking forever ', chunkSize: 4, hang: true });
    const before = model.requests.length;
    await expect(
      impatient.chat.completions.create({ model: 'hermes-agent', messages: ask('take ages') }, session),
    ).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    const hung = model.requests[before]!;
    const deadline = Date.now() + 10_000;
    while (hung.clientClosedAt === undefined) {
      if (Date.now() > deadline) throw new Error('the turn was not stopped');
      await new Promise((r) => setTimeout(r, 25));
    }
    model.push({ text: 'back' });
    const next = await client.chat.completions.create(
      { model: 'hermes-agent', messages: ask('again') },
      session,
    );
    expect(next.choices[0]!.message.content).toBe('back');
  }, 30_000);

  it('two clients on one session at once: both answered, one after the other', async () => {
    const session = { headers: { 'X-Hermes-Session-Id': 'clients-shared' } };
    const other = new OpenAI({ baseURL: base, apiKey: API_KEY });
    model.push(
      { text: 'first answer', chunkSize: 2, delayMs: 20 },
      { echo: 'last_user', prefix: 'second: ' },
    );
    const [a, b] = await Promise.all([
      client.chat.completions.create({ model: 'hermes-agent', messages: ask('from A') }, session),
      (async () => {
        await model.waitForRequests(model.requests.length + 1, 5000);
        return other.chat.completions.create({ model: 'hermes-agent', messages: ask('from B') }, session);
      })(),
    ]);
    expect(a.choices[0]!.message.content).toBe('first answer');
    expect(b.choices[0]!.message.content).toBe('second: from B');
    // B's turn ran after A's and saw it
    expect(lastUserTexts(model)).toEqual(['from A', 'from B']);
  }, 30_000);

  it('a Responses stream aborted mid-way is kept as incomplete, and can be continued', async () => {
    model.push({ text: 'partial words ', chunkSize: 14, hang: true });
    const abort = new AbortController();
    const events = await client.responses.create(
      { model: 'hermes-agent', input: 'start and stop', stream: true },
      { signal: abort.signal },
    );
    const seen = events[Symbol.asyncIterator]();
    let id = '';
    for (;;) {
      const { value } = await seen.next();
      if (value?.type === 'response.created') id = value.response.id;
      if (value?.type === 'response.output_text.delta') break;
    }
    abort.abort();
    const deadline = Date.now() + 10_000;
    let kept: OpenAI.Responses.Response | undefined;
    while (!kept) {
      kept = await client.responses.retrieve(id).catch(() => undefined);
      if (!kept && Date.now() > deadline) throw new Error('the interrupted response was not kept');
      if (!kept) await new Promise((r) => setTimeout(r, 50));
    }
    expect(kept).toMatchObject({ status: 'incomplete', output_text: 'partial words ' });
    model.push({ echo: 'last_user', prefix: 'continued: ' });
    const next = await client.responses.create({
      model: 'hermes-agent',
      input: 'go on',
      previous_response_id: id,
    });
    expect(next.output_text).toBe('continued: go on');
    expect(lastUserTexts(model)).toEqual(['start and stop', 'go on']);
  }, 30_000);

  it('one client aborts while another waits on the same session: the other’s answer is clean', async () => {
    const session = { headers: { 'X-Hermes-Session-Id': 'clients-abort-shared' } };
    model.push({ text: 'endless ', chunkSize: 4, hang: true }, { echo: 'last_user', prefix: 'B got: ' });
    const abort = new AbortController();
    const first = await client.chat.completions.create(
      { model: 'hermes-agent', messages: ask('A streams'), stream: true },
      { ...session, signal: abort.signal },
    );
    // read until A's text arrives, without ending the iteration (that would abort at once)
    const chunks = first[Symbol.asyncIterator]();
    for (;;) {
      const { value } = await chunks.next();
      if (value?.choices[0]?.delta?.content) break;
    }
    // B is sent while A's turn runs, then A's client goes away
    const second = client.chat.completions.create(
      { model: 'hermes-agent', messages: ask('B waits') },
      session,
    );
    abort.abort();
    const b = await second;
    expect(b.choices[0]!.message.content).toBe('B got: B waits');
    expect(lastUserTexts(model)).toEqual(['A streams', 'B waits']);
  }, 30_000);

  it('a very long prompt and unicode arrive intact, both ways and streamed', async () => {
    const long = 'Lorem ipsum dolor sit amet. '.repeat(40_000); // ~1.1 MB
    model.push({ text: 'read it all' });
    const r = await client.chat.completions.create({ model: 'hermes-agent', messages: ask(long) });
    expect(r.choices[0]!.message.content).toBe('read it all');
    expect(lastUserTexts(model).at(-1)).toBe(long.trim());

    const text = 'Grüße 👋🏽 — 世界, émoji 🧑‍💻 and RTL שלום';
    model.push({ echo: 'last_user', prefix: '' });
    const whole = await client.chat.completions.create({ model: 'hermes-agent', messages: ask(text) });
    expect(whole.choices[0]!.message.content).toBe(text);

    model.push({ text, chunkSize: 3 });
    const stream = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: ask('unicode please'),
      stream: true,
    });
    let got = '';
    for await (const c of stream) got += c.choices[0]?.delta?.content ?? '';
    expect(got).toBe(text);
  }, 60_000);

  it('an answer the model’s output limit cut off says so: finish_reason length, response incomplete', async () => {
    model.push({ text: 'the first half of', finishReason: 'length' });
    const whole = await client.chat.completions.create({ model: 'hermes-agent', messages: ask('long one') });
    expect(whole.choices[0]).toMatchObject({
      message: { content: 'the first half of' },
      finish_reason: 'length',
    });

    model.push({ text: 'cut off again', finishReason: 'length', chunkSize: 4 });
    const stream = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: ask('long two'),
      stream: true,
    });
    let finish: string | null = null;
    for await (const c of stream) finish = c.choices[0]?.finish_reason ?? finish;
    expect(finish).toBe('length');

    model.push({ text: 'cut off response', finishReason: 'length' });
    const r = await client.responses.create({ model: 'hermes-agent', input: 'long three' });
    expect(r).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output_text: 'cut off response',
    });

    model.push({ text: 'complete' });
    const fine = await client.chat.completions.create({ model: 'hermes-agent', messages: ask('short') });
    expect(fine.choices[0]!.finish_reason).toBe('stop');
  });

  it('request fields: n, temperature, max_tokens, stream_options, tools', async () => {
    // sampling fields are accepted (the profile's model settings apply)
    model.push({ text: 'sampled' });
    const r = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: ask('sample'),
      n: 1,
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 5,
      max_completion_tokens: 5,
      presence_penalty: 0,
      seed: 1,
      stop: ['\n\n\n'],
      tools: [],
    });
    expect(r.choices[0]!.message.content).toBe('sampled');

    const many = await apiRefusal(
      client.chat.completions.create({ model: 'hermes-agent', messages: ask('x'), n: 3 }),
    );
    expect(many.status).toBe(400);
    expect(many.error).toMatchObject({ param: 'n', type: 'invalid_request_error' });

    const tools = await apiRefusal(
      client.chat.completions.create({
        model: 'hermes-agent',
        messages: ask('x'),
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      }),
    );
    expect(tools.status).toBe(400);
    expect(tools.error).toMatchObject({ param: 'tools', code: 'unsupported_parameter' });
    expect(tools.message).toContain('runs its own tools');

    const responseTools = await apiRefusal(
      client.responses.create({
        model: 'hermes-agent',
        input: 'x',
        tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: false }],
      }),
    );
    expect(responseTools.status).toBe(400);

    // without include_usage no usage chunk; with it, one last chunk without choices
    for (const includeUsage of [false, true]) {
      model.push({ text: 'counted', usage: { prompt_tokens: 11, completion_tokens: 1 } });
      const stream = await client.chat.completions.create({
        model: 'hermes-agent',
        messages: ask('count'),
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      });
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const c of stream) chunks.push(c);
      const withUsage = chunks.filter((c) => c.usage);
      if (includeUsage) {
        expect(withUsage).toHaveLength(1);
        expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 11, total_tokens: 12 } });
      } else expect(withUsage).toHaveLength(0);
    }
  }, 30_000);
});
