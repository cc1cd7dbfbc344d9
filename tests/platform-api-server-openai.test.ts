/**
 * The API server as OpenAI clients use it (the real daemon, the scripted model, the `openai`
 * package as the client): a stateless request's `messages` reach the model as the conversation
 * (system message in the system prompt, earlier turns as history), real token counts, a stream
 * with tool progress events, message boundaries and the usage chunk, OpenAI-shaped errors with
 * real statuses, models, capabilities and CORS for configured origins only. Run `npm run build`
 * first.
 */
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
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

const KEY = API_KEY;
const ORIGIN = 'http://localhost:3000';
let model: FakeModelServer;
let root: string;
let base: string;
let client: OpenAI;

const lastRequest = () => lastMessages(model);
const userTexts = (): string[] => lastUserTexts(model);

beforeAll(async () => {
  model = await startFakeModelServer();
  ({ root, base, client } = await startApiServerDaemon(model, [`cors_origins: ['${ORIGIN}']`]));
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await model?.close();
});

describe('api_server with OpenAI clients', () => {
  it('a stateless request: system message in the system prompt, earlier messages as real turns before the new one', async () => {
    model.push({ text: 'Ça va bien.', usage: { prompt_tokens: 321, completion_tokens: 12 } });
    const r = await client.chat.completions.create({
      model: 'hermes-agent',
      user: 'alice', // a label of the end user, not a conversation
      messages: [
        { role: 'system', content: 'Always answer in French.' },
        { role: 'user', content: 'My name is Alice.' },
        { role: 'assistant', content: 'Bonjour Alice.' },
        { role: 'user', content: 'How are you?' },
      ],
    });
    expect(r.choices[0]!.message.content).toBe('Ça va bien.');
    expect(r.usage).toMatchObject({ prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 });
    const sent = lastRequest();
    expect(sent[0]!.role).toBe('system');
    expect(sent[0]!.content).toContain(
      '<client_instructions>\nAlways answer in French.\n</client_instructions>',
    );
    // the earlier messages reach the model as real turns, then the new message
    expect(sent.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'My name is Alice.'],
      ['assistant', 'Bonjour Alice.'],
      ['user', 'How are you?'],
    ]);

    // the same `user` again is not the same conversation: nothing of the first request remains
    model.push({ text: 'fresh' });
    await client.chat.completions.create({
      model: 'hermes-agent',
      user: 'alice',
      messages: [{ role: 'user', content: 'new topic' }],
    });
    expect(
      lastRequest()
        .filter((m) => m.role === 'user')
        .map((m) => m.content),
    ).toEqual(['new topic']);
  });

  it('streams messages apart, tool progress as its own event type, and the usage chunk', async () => {
    model.push(
      {
        text: 'Let me read the file.',
        toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }],
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      },
      { text: 'The file says hello.', usage: { prompt_tokens: 150, completion_tokens: 5 } },
    );
    const stream = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: [{ role: 'user', content: 'read missing.txt' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const progress: Array<Record<string, unknown>> = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const c of stream) {
      text += c.choices[0]?.delta?.content ?? '';
      const raw = c as unknown as Record<string, unknown>;
      if (raw.object === 'hermes.tool.progress') progress.push(raw);
      if (c.usage) usage = c.usage;
    }
    expect(text).toBe('Let me read the file.\n\nThe file says hello.');
    expect(progress.map((p) => [p.status, p.tool])).toEqual([
      ['running', 'read_file'],
      [expect.stringMatching(/^(completed|failed)$/), 'read_file'],
    ]);
    expect(usage).toMatchObject({ prompt_tokens: 250, completion_tokens: 15, total_tokens: 265 });
  });

  it('tool progress is a named SSE event (clients that dispatch by event type skip it)', async () => {
    model.push({ toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] }, { text: 'done' });
    const res = await fetch(`${base}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'hermes-agent',
        stream: true,
        messages: [{ role: 'user', content: 'go' }],
      }),
    });
    const body = await res.text();
    expect(body).toMatch(/^event: hermes\.tool\.progress\ndata: \{/m);
    // unnamed data events are chat.completion.chunk only
    for (const block of body.split('\n\n').filter((b) => b.startsWith('data: {')))
      expect(JSON.parse(block.slice(6))).toMatchObject({ object: 'chat.completion.chunk' });
  });

  it('errors are OpenAI-shaped with real statuses', async () => {
    const bad = new OpenAI({ baseURL: base, apiKey: 'wrong-key-wrong-key', maxRetries: 0 });
    await expect(bad.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);

    const noMessages = await apiRefusal(
      client.chat.completions.create({ model: 'hermes-agent', messages: [] }),
    );
    expect(noMessages).toBeInstanceOf(OpenAI.BadRequestError);
    expect(noMessages.error).toMatchObject({ param: 'messages', type: 'invalid_request_error' });

    const many = await apiRefusal(
      client.chat.completions.create({
        model: 'hermes-agent',
        n: 2,
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(many.status).toBe(400);
    expect(many.error).toMatchObject({ param: 'n' });

    const unknown = await client.models.retrieve('no-such-model').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);

    const huge = await apiRefusal(
      client.chat.completions.create({
        model: 'hermes-agent',
        messages: [{ role: 'user', content: 'x'.repeat(5 * 1024 * 1024) }],
      }),
    );
    expect(huge.status).toBe(413);

    // the model refuses: the turn fails, and the client gets a 500, not a 200 apology
    model.push({ error: { status: 400, message: 'context too weird' } });
    const failed = await apiRefusal(
      client.chat.completions.create({
        model: 'hermes-agent',
        messages: [{ role: 'user', content: 'fail please' }],
      }),
    );
    expect(failed).toBeInstanceOf(OpenAI.InternalServerError);
    expect(failed.error).toMatchObject({ type: 'server_error' });
  }, 30_000);

  it('chat.completions.parse with a zod schema: the answer is checked, repaired once, else an error', async () => {
    const Person = z.object({ name: z.string(), age: z.number().int() });
    // the first answer misses a field: one repair turn shows the model its answer and the error
    model.push({ text: 'Here: {"name": "Ada"}' }, { text: '```json\n{"name": "Ada", "age": 36}\n```' });
    const done = await client.chat.completions.parse({
      model: 'hermes-agent',
      messages: [{ role: 'user', content: 'Who wrote the first program? Give name and age at the time.' }],
      response_format: zodResponseFormat(Person, 'person'),
    });
    expect(done.choices[0]!.message.parsed).toEqual({ name: 'Ada', age: 36 });
    const repair = userTexts();
    expect(repair.at(-1)).toContain('<previous_answer>\nHere: {"name": "Ada"}\n</previous_answer>');
    expect(repair.at(-1)).toContain('"required":["name","age"]');

    model.push({ text: 'no' }, { text: 'still no' });
    const failed = await apiRefusal(
      client.chat.completions.parse({
        model: 'hermes-agent',
        messages: [{ role: 'user', content: 'again' }],
        response_format: zodResponseFormat(Person, 'person'),
      }),
    );
    expect(failed.status).toBe(500);
    expect(failed.error).toMatchObject({ code: 'invalid_structured_output' });

    model.push({ text: '{"ok": true}' });
    const obj = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: [{ role: 'user', content: 'json please' }],
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(obj.choices[0]!.message.content!)).toEqual({ ok: true });
  }, 30_000);

  it('lists and retrieves the model; describes its capabilities', async () => {
    expect((await client.models.retrieve('hermes-agent')).id).toBe('hermes-agent');
    const caps = (await client.get('/capabilities')) as { features: Record<string, boolean> };
    expect(caps.features).toMatchObject({ chat_completions: true, stream_usage: true });
  });

  it('CORS: a configured origin’s preflight is answered without a key; another is refused', async () => {
    const preflight = (origin: string): Promise<Response> =>
      fetch(`${base}/chat/completions`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
    const ok = await preflight(ORIGIN);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(ok.headers.get('access-control-allow-headers')).toContain('authorization');
    const refused = await preflight('http://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();

    const models = await fetch(`${base}/models`, {
      headers: { origin: ORIGIN, authorization: `Bearer ${KEY}` },
    });
    expect(models.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });
});
