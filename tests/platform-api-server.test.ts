/**
 * The OpenAI-compatible API server end to end: the real daemon with
 * `platforms.api_server` enabled, the `openai` package as the client (streamed and whole
 * answers, models list, conversations mapped to sessions), and a platform whose requirements
 * fail staying offline without stopping the others (`hermes gateway status`).
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';
import { freePort } from './support/ngircd.js';
import { gatewayStatus, startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

const KEY = 'test-key-0123456789abcdef';
let model: FakeModelServer;
let root: string;
let port: number;
let client: OpenAI;

const status = () => gatewayStatus(root);

beforeAll(async () => {
  model = await startFakeModelServer();
  port = await freePort();
  root = makeTestHome({
    modelUrl: model.url,
    env: `API_SERVER_KEY=${KEY}\n`,
    config: [
      'platforms:',
      '  api_server:',
      '    enabled: true',
      `    port: ${port}`,
      '  irc:',
      '    enabled: true # no server configured: its check fails, the API server must still come up',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'api_server', 'the API server to listen');
  client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: KEY, maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await model?.close();
});

describe('api_server platform', () => {
  it('lists the agent as a model', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['hermes-agent']);
  });

  it('streams an answer to the openai client', async () => {
    model.push({ text: 'Hello from the agent, in pieces.', chunkSize: 4, delayMs: 5 });
    const stream = await client.chat.completions.create(
      {
        model: 'hermes-agent',
        messages: [{ role: 'user', content: 'say hello' }],
        stream: true,
      },
      { headers: { 'X-Hermes-Session-Id': 'conv-1' } },
    );
    const deltas: string[] = [];
    let finish: string | null = null;
    for await (const c of stream) {
      if (c.choices[0]?.delta?.content) deltas.push(c.choices[0].delta.content);
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(deltas.join('')).toBe('Hello from the agent, in pieces.');
    expect(deltas.length).toBeGreaterThan(3);
    expect(finish).toBe('stop');
  });

  it('answers whole, continuing the session the X-Hermes-Session-Id header names', async () => {
    model.push({ echo: 'last_user', prefix: 'got: ' });
    const r = await client.chat.completions.create(
      {
        model: 'hermes-agent',
        messages: [
          { role: 'user', content: 'ignored: the session keeps the history' },
          { role: 'user', content: 'second message' },
        ],
      },
      { headers: { 'X-Hermes-Session-Id': 'conv-1' } },
    );
    expect(r.choices[0]?.message.content).toBe('got: second message');
    const sent = (model.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>)
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(sent).toEqual(['say hello', 'second message']);

    model.push({ echo: 'last_user', prefix: 'other: ' });
    await client.chat.completions.create(
      { model: 'hermes-agent', messages: [{ role: 'user', content: 'fresh' }] },
      { headers: { 'X-Hermes-Session-Id': 'conv-2' } },
    );
    const other = (model.requests.at(-1)!.body.messages as Array<{ role: string }>).filter(
      (m) => m.role === 'user',
    );
    expect(other).toHaveLength(1);
  });

  it('refuses a wrong key', async () => {
    const bad = new OpenAI({
      baseURL: `http://127.0.0.1:${port}/v1`,
      apiKey: 'wrong-key-wrong-key',
      maxRetries: 0,
    });
    await expect(bad.models.list()).rejects.toMatchObject({ status: 401 });
  });

  it('a platform whose requirements fail stays offline; status says why; the others run', async () => {
    const s = await status();
    expect(s.platforms).toEqual([
      expect.objectContaining({ profile: 'default', platform: 'api_server', state: 'connected' }),
      expect.objectContaining({
        platform: 'irc',
        state: 'failed',
        error: expect.stringContaining('server is not set'),
      }),
    ]);
    const r = await runHermes(root, ['gateway', 'status']);
    expect(r.stdout).toMatch(/api_server: connected/);
    expect(r.stdout).toMatch(/irc: failed: config: platforms\.irc\.server is not set/);
  });
});
