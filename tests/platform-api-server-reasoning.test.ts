/**
 * A reasoning effort the provider does not take (a `custom` endpoint) is a notice, not a failure:
 * the API server still answers with the model's reply, and the request went without the parameter.
 * Run `npm run build` first.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServerDaemon } from './support/api-server-daemon.js';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let root: string;
let client: OpenAI;

beforeAll(async () => {
  model = await startFakeModelServer();
  ({ root, client } = await startApiServerDaemon(model, [], ['reasoning_effort: high']));
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await model?.close();
});

describe('API server with an unsupported reasoning effort', () => {
  it('answers normally, and the model request carries no reasoning parameter', async () => {
    model.push({ text: 'plain answer' });
    const r = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(r.choices[0]!.message.content).toBe('plain answer');
    const sent = model.requests.at(-1)!.body;
    expect(sent).not.toHaveProperty('reasoning_effort');
    expect(sent).not.toHaveProperty('reasoning');
  });
});
