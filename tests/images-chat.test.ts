/**
 * Images from the command line and through the daemon: `hermes chat -q --image` (in process and
 * through a running daemon) sends image parts to the scripted model and stores the attachments
 * with the message (`sessions show`, `session.history`); a model without vision refuses the
 * prompt naming the model and `model.vision`; a file that is not an image is refused by name.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@hermes/client';
import { TINY_GIF, TINY_PNG } from '@hermes/core/testing';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';

let model: FakeModelServer;
let vision: string; // a home whose model takes images (model.vision: true)
let plain: string; // a home whose model is unknown: no vision
const pngUrl = `data:image/png;base64,${TINY_PNG.toString('base64')}`;
const gifUrl = `data:image/gif;base64,${TINY_GIF.toString('base64')}`;

beforeAll(async () => {
  model = await startFakeModelServer();
  // the extra line continues the `model:` section of the test home
  vision = makeTestHome({ modelUrl: model.url, config: '  vision: true' });
  plain = makeTestHome({ modelUrl: model.url });
  for (const root of [vision, plain]) {
    writeFileSync(join(root, 'dot.png'), TINY_PNG);
    writeFileSync(join(root, 'dot.gif'), TINY_GIF);
    writeFileSync(join(root, 'notes.png'), 'not an image at all');
  }
});
afterAll(async () => {
  for (const root of [vision, plain]) {
    await runHermes(root, ['gateway', 'stop']).catch(() => undefined);
    killDaemons(root);
  }
  await model.close();
});

describe('hermes chat -q --image', () => {
  it('sends the images as image parts and stores them with the message (in process)', async () => {
    const before = model.requests.length;
    model.push({ text: 'a red dot and a gif' });
    const run = await runHermes(
      vision,
      ['chat', '-q', 'what are these?', '--image', 'dot.png', '--image', 'dot.gif'],
      {
        cwd: vision,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('a red dot and a gif');
    const sent = model.requests[before]!.body.messages.at(-1);
    expect(sent).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what are these?' },
        { type: 'image_url', image_url: { url: pngUrl } },
        { type: 'image_url', image_url: { url: gifUrl } },
      ],
    });
    const list = await runHermes(vision, ['sessions', 'list', '--json']);
    const id = (JSON.parse(list.stdout) as Array<{ id: string }>)[0]!.id;
    const show = await runHermes(vision, ['sessions', 'show', id]);
    expect(show.stdout).toContain(
      `[image dot.png · ${TINY_PNG.length} B] [image dot.gif · ${TINY_GIF.length} B]`,
    );
  });

  it('refuses images for a model without vision, naming the model and model.vision; nothing sent', async () => {
    const before = model.requests.length;
    const run = await runHermes(plain, ['chat', '-q', 'look', '--image', 'dot.png'], { cwd: plain });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/model fake-model cannot take images/);
    expect(run.stderr).toContain('model.vision: true');
    expect(model.requests.length).toBe(before);
  });

  it('refuses a file that is not an image, naming it', async () => {
    const run = await runHermes(vision, ['chat', '-q', 'look', '--image', 'notes.png'], { cwd: vision });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/image 1 "notes.png": not a PNG, JPEG, GIF or WebP image/);
    const missing = await runHermes(vision, ['chat', '-q', 'look', '--image', 'gone.png'], { cwd: vision });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/"gone.png": cannot read .*no such file/);
  });

  it('through a running daemon: image parts reach the model, session.history lists the chip', async () => {
    const started = await runHermes(vision, ['gateway', 'start']);
    expect(started.code, started.stderr).toBe(0);
    const before = model.requests.length;
    model.push({ text: 'seen through the daemon' });
    const run = await runHermes(vision, ['chat', '-q', 'and this one?', '--image', 'dot.png'], {
      cwd: vision,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('seen through the daemon');
    expect(model.requests[before]!.body.messages.at(-1).content).toEqual([
      { type: 'text', text: 'and this one?' },
      { type: 'image_url', image_url: { url: pngUrl } },
    ]);
    const c = await connect({ root: vision }, { name: 'watcher', capabilities: { approvals: false } });
    try {
      const { sessions } = await c.request('session.list', { limit: 1 });
      const { messages } = await c.request('session.history', { session_id: sessions[0]!.id });
      expect(messages.find((m) => m.role === 'user')?.attachments).toEqual([
        { kind: 'image', name: 'dot.png', mime: 'image/png', bytes: TINY_PNG.length },
      ]);
      // a refused attachment fails prompt.submit naming it; nothing is queued
      await expect(
        c.request('prompt.submit', {
          session_id: sessions[0]!.id,
          text: 'x',
          attachments: [{ kind: 'image', path: join(vision, 'notes.png') }],
        }),
      ).rejects.toThrow(/image 1 "notes.png": not a PNG/);
    } finally {
      await c.close();
    }
  });
});
