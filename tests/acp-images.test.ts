/**
 * Images over ACP (the scripted editor against `hermes acp`, the real daemon and the scripted
 * model): `promptCapabilities.image` follows the profile's model (`model.vision`), an image
 * content block reaches the model as an image part and is stored with the message, and a model
 * without vision refuses it with the reason. Run `npm run build` first.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@hermes/client';
import { TINY_PNG } from '@hermes/core/testing';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { hermes, killDaemons, tempRoot } from './support/gateway-process.js';
import { writeConfig } from './support/gateway-session-kit.js';
import { initializeEditor, startAcpEditor, type AcpEditor } from './support/acp-editor.js';

let root: string;
let model: FakeModelServer;
let ed: AcpEditor;
const b64 = TINY_PNG.toString('base64');

beforeAll(async () => {
  root = tempRoot('hermes-acp-img-');
  model = await startFakeModelServer();
  writeConfig(root, model.url, '  vision: true\n');
  ed = await startAcpEditor(root);
});

afterAll(async () => {
  const code = await ed?.close();
  if (root) killDaemons(root);
  await model?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  expect(code).toBe(0);
});

describe('hermes acp with images', () => {
  let sid: string;

  it('advertises images for a model with vision; an image block reaches the model as an image part', async () => {
    const init = await initializeEditor(ed);
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
    sid = (await ed.conn.agent.request('session/new', { cwd: root, mcpServers: [] })).sessionId;
    const before = model.requests.length;
    model.push({ text: 'One red pixel.' });
    const res = await ed.conn.agent.request('session/prompt', {
      sessionId: sid,
      prompt: [
        { type: 'text', text: 'What is this?' },
        { type: 'image', data: b64, mimeType: 'image/png', uri: 'file:///w/dot.png' },
      ],
    });
    expect(res.stopReason).toBe('end_turn');
    expect(model.requests[before]!.body.messages.at(-1).content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${b64}` } },
    ]);
    const c = await connect({ root }, { name: 'acp-img-reader', capabilities: { approvals: false } });
    try {
      const { messages } = await c.request('session.history', { session_id: sid });
      expect(messages.find((m) => m.role === 'user')?.attachments).toEqual([
        { kind: 'image', name: 'dot.png', mime: 'image/png', bytes: TINY_PNG.length },
      ]);
    } finally {
      await c.close();
    }
  });

  it('a model without vision refuses the image with the reason', async () => {
    const set = await hermes(root, ['config', 'set', 'model.vision', 'false']);
    expect(set.code, set.stderr).toBe(0);
    const before = model.requests.length;
    const err = await ed.conn.agent
      .request('session/prompt', {
        sessionId: sid,
        prompt: [
          { type: 'text', text: 'And this?' },
          { type: 'image', data: b64, mimeType: 'image/png' },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => e as Error & { data?: unknown },
      );
    expect(`${err?.message} ${JSON.stringify(err?.data)}`).toMatch(/model fake cannot take images/);
    expect(model.requests.length).toBe(before);
  });
});
