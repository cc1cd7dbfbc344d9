/**
 * Images through the API server, with the official `openai` client: an `image_url` part (a data:
 * URL) of /v1/chat/completions and an `input_image` of /v1/responses reach the scripted model as
 * image parts; an http(s) image URL is refused with a 400 (never fetched), bytes that are no image
 * with a 400 naming the image, and a model without vision with a 400 naming the model and
 * `model.vision`. Run `npm run build` first.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from '@hermes/core/testing';
import { apiRefusal, startApiServerDaemon } from './support/api-server-daemon.js';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { runHermes } from './support/hermes-cli.js';
import { stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let root: string;
let client: OpenAI;
const dataUrl = `data:image/png;base64,${TINY_PNG.toString('base64')}`;

beforeAll(async () => {
  model = await startFakeModelServer();
  ({ root, client } = await startApiServerDaemon(model, [], ['vision: true']));
}, 60_000);

/** A chat completion whose one user message is `look` and an image part of `url`. */
const chatWithImage = (url: string) =>
  client.chat.completions.create({
    model: 'hermes-agent',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url } },
        ],
      },
    ],
  });

afterAll(async () => {
  await stopDaemon(root);
  await model?.close();
});

describe('api_server images', () => {
  it('chat completions: an image_url part reaches the model as an image part', async () => {
    const before = model.requests.length;
    model.push({ text: 'A single red pixel.' });
    const r = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this image?' },
            { type: 'image_url', image_url: { url: dataUrl } },
          ],
        },
      ],
    });
    expect(r.choices[0]!.message.content).toBe('A single red pixel.');
    const sent = model.requests[before]!.body.messages.at(-1);
    expect(sent).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this image?' },
        { type: 'image_url', image_url: { url: dataUrl } },
      ],
    });
  });

  it('responses: an input_image reaches the model as an image part', async () => {
    const before = model.requests.length;
    model.push({ text: 'Still a red pixel.' });
    const r = await client.responses.create({
      model: 'hermes-agent',
      store: false,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Describe it' },
            { type: 'input_image', image_url: dataUrl, detail: 'auto' },
          ],
        },
      ],
    });
    expect(r.output_text).toBe('Still a red pixel.');
    expect(model.requests[before]!.body.messages.at(-1).content).toEqual([
      { type: 'text', text: 'Describe it' },
      { type: 'image_url', image_url: { url: dataUrl } },
    ]);
  });

  it('refuses an http(s) image URL and bytes that are no image with a 400; the model is not called', async () => {
    const before = model.requests.length;
    const remote = await apiRefusal(chatWithImage('https://example.com/cat.png'));
    expect(remote.status).toBe(400);
    expect(remote.code).toBe('unsupported_image_url');
    expect(remote.message).toMatch(/not fetched.*data: URL/);
    const notImage = await apiRefusal(
      chatWithImage(`data:image/png;base64,${Buffer.from('hello').toString('base64')}`),
    );
    expect(notImage.status).toBe(400);
    expect(notImage.message).toMatch(/image 1 "image-1": not a PNG, JPEG, GIF or WebP image/);
    expect(model.requests.length).toBe(before);
  });

  it('refuses images for a model without vision with a 400 naming the model and model.vision', async () => {
    const set = await runHermes(root, ['config', 'set', 'model.vision', 'false']);
    expect(set.code, set.stderr).toBe(0);
    const before = model.requests.length;
    const r = await apiRefusal(chatWithImage(dataUrl));
    expect(r.status).toBe(400);
    expect(r.message).toMatch(
      /model fake-model cannot take images \(model\.vision is false in config\.yaml\)/,
    );
    expect(model.requests.length).toBe(before);
  });
});
