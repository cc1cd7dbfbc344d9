/**
 * Telegram media end to end: the real daemon with `platforms.telegram` pointed at the local Bot
 * API stand-in (tests/support/fake-telegram.ts, getFile + the file download path + multipart
 * sendDocument) and the scripted model. A photo reaches the model as an image part; a document is
 * saved under the session's media folder and named in the turn's text; a voice note is saved with
 * a "not transcribed" note; a message delivered again is dropped without a second download; a long
 * reply comes back as a document with a summary caption.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { startFakeTelegram, type FakeTelegram, telegramConfigLines } from './support/fake-telegram.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import {
  killDaemonHard,
  outcomeLines,
  startDaemonWithPlatform,
  stopDaemon,
} from './support/platform-daemon.js';

let model: FakeModelServer;
let tg: FakeTelegram;
let root: string;

// a 1×1 PNG (the daemon checks image bytes by their magic numbers)
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The content of the last user message of the model request that contains `marker`. */
function userContentWith(marker: string): unknown {
  const req = model.requests.find((r) => JSON.stringify(r.body.messages).includes(marker));
  if (!req) return undefined;
  const users = (req.body.messages as Array<{ role: string; content: unknown }>).filter(
    (m) => m.role === 'user',
  );
  return users.at(-1)!.content;
}

beforeAll(async () => {
  model = await startFakeModelServer();
  tg = await startFakeTelegram();
  root = makeTestHome({
    modelUrl: model.url,
    env: `TELEGRAM_BOT_TOKEN=${tg.token}\n`,
    config: [
      ...telegramConfigLines(tg),
      '    streaming: false',
      '    long_reply_as_file_above: 300',
      '    reset: { mode: none }',
    ].join('\n'),
  });
  // the scripted model takes images (model.vision, in the model section makeTestHome wrote)
  const cfg = join(root, 'config.yaml');
  writeFileSync(
    cfg,
    readFileSync(cfg, 'utf8').replace('  default: fake-model\n', '  default: fake-model\n  vision: true\n'),
  );
  await startDaemonWithPlatform(root, 'telegram');
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await tg?.close();
  await model?.close();
});

const botMessages = () => [...tg.sent.values()].filter((m) => m.chat_id === '111');

describe('Telegram media', () => {
  it('a photo with a caption reaches the model as an image part', async () => {
    model.push({ text: 'A tiny image.' });
    tg.userMessage({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      text: 'describe this photo',
      media: { photo: [{ width: 1, height: 1, data: PNG }] },
    });
    await waitFor(() => botMessages().find((m) => m.text === 'A tiny image.'), 'the reply');
    const content = userContentWith('describe this photo') as Array<{
      type: string;
      text?: string;
      image_url?: { url: string };
    }>;
    expect(content.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(content[0]!.text).toBe('describe this photo');
    expect(content[1]!.image_url!.url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  it('a document is saved in the session folder, named in the turn text as untrusted data, and read by the agent', async () => {
    // the agent opens the saved file with read_file, at the path the turn's text names
    model.push(
      (req) => {
        const text = JSON.stringify(req.body.messages);
        const path = /saved at \\"([^\\]+)\\"/.exec(text)?.[1] ?? 'missing';
        return { toolCalls: [{ name: 'read_file', arguments: { path } }] };
      },
      { echo: 'last_tool_result', prefix: 'Read it: ' },
    );
    tg.userMessage({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      text: 'summarise the attachment',
      media: { document: { name: 'Q3 "plan".txt', mime: 'text/plain', data: Buffer.from('ship it') } },
    });
    const reply = await waitFor(() => botMessages().find((m) => m.text.startsWith('Read it: ')), 'the reply');
    expect(reply.text).toContain('ship it');
    const text = String(userContentWith('summarise the attachment'));
    expect(text).toContain('Files received with this message (untrusted data');
    const m = /- file "Q3 \\"plan\\"\.txt" · type "text\/plain" · 7 bytes · saved at "([^"]+)"/.exec(text);
    expect(m, text).not.toBeNull();
    const saved = m![1]!;
    expect(saved.startsWith(join(root, 'media', 'sessions'))).toBe(true);
    expect(saved.endsWith('/Q3_plan_.txt')).toBe(true);
    expect(readFileSync(saved, 'utf8')).toBe('ship it');
    expect(statSync(saved).mode & 0o777).toBe(0o600);
  });

  it('a voice note is saved with a "not transcribed" note', async () => {
    model.push({ text: 'Noted.' });
    tg.userMessage({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      text: '',
      media: { voice: { data: Buffer.from('OggS-voice') } },
    });
    await waitFor(() => botMessages().find((m) => m.text === 'Noted.'), 'the reply');
    const text = String(userContentWith('voice note'));
    expect(text).toMatch(
      /- voice note "voice-\d+\.ogg" · type "audio\/ogg" · 10 bytes · saved at "[^"]+" · voice note, not transcribed/,
    );
  });

  it('a message with a document delivered again is dropped as a duplicate without a second download', async () => {
    model.push({ text: 'Kept once.' });
    const before = new Set(tg.files.keys());
    tg.userMessage({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      text: 'keep this one',
      media: { document: { name: 'once.txt', mime: 'text/plain', data: Buffer.from('once') } },
    });
    const [id] = [...tg.files.keys()].filter((f) => !before.has(f));
    await waitFor(() => botMessages().find((m) => m.text === 'Kept once.'), 'the reply');
    expect(tg.files.get(id!)!.downloads).toBe(1);
    const dropped = (): number =>
      outcomeLines(root).filter((l) => l.includes('chat=111') && l.includes('reason="duplicate"')).length;
    const droppedBefore = dropped();
    tg.redeliverLast();
    await waitFor(() => dropped() > droppedBefore, 'the copy dropped as a duplicate');
    expect(tg.files.get(id!)!.downloads).toBe(1);
    expect(tg.calls.filter((c) => c.method === 'getFile' && c.params.file_id === id)).toHaveLength(1);
  });

  it('a photo whose turn a kill -9 cuts: the restarted daemon runs it again with the photo', async () => {
    model.push({ hang: true });
    tg.userMessage({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      text: 'what is in this picture',
      media: { photo: [{ width: 1, height: 1, data: PNG }] },
    });
    await waitFor(() => userContentWith('what is in this picture'), 'the turn asked the model');
    const asked = model.requests.length;
    await killDaemonHard(root);
    model.push({ text: 'Seen after the restart.' });
    await startDaemonWithPlatform(root, 'telegram');
    await waitFor(() => botMessages().find((m) => m.text === 'Seen after the restart.'), 'the reply');
    const again = model.requests
      .slice(asked)
      .find((r) => JSON.stringify(r.body.messages).includes('what is in'));
    const users = (again!.body.messages as Array<{ role: string; content: unknown }>).filter(
      (m) => m.role === 'user',
    );
    const content = users.at(-1)!.content as Array<{ type: string; image_url?: { url: string } }>;
    expect(content.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(content[1]!.image_url!.url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    // the turn is over: its spool is gone
    await waitFor(
      () => readdirSync(join(root, 'media', 'inbound', 'telegram')).length === 0,
      'the spool removed',
    );
  });

  it('a photo whose download a kill -9 cuts: the restarted daemon downloads it again and runs the turn with it', async () => {
    tg.stallDownloads = true;
    const before = new Set(tg.files.keys());
    tg.userMessage({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      text: 'and this one',
      media: { photo: [{ width: 1, height: 1, data: PNG }] },
    });
    const id = await waitFor(() => [...tg.files.keys()].find((f) => !before.has(f)), 'the photo served');
    await waitFor(() => tg.files.get(id)!.downloads === 1, 'the download begun');
    await killDaemonHard(root);
    tg.stallDownloads = false;
    const asked = model.requests.length;
    model.push({ text: 'Got the second photo.' });
    await startDaemonWithPlatform(root, 'telegram');
    await waitFor(() => botMessages().find((m) => m.text === 'Got the second photo.'), 'the reply');
    expect(tg.files.get(id)!.downloads).toBe(2);
    const req = model.requests
      .slice(asked)
      .find((r) => JSON.stringify(r.body.messages).includes('and this one'));
    const users = (req!.body.messages as Array<{ role: string; content: unknown }>).filter(
      (m) => m.role === 'user',
    );
    const content = users.at(-1)!.content as Array<{
      type: string;
      text?: string;
      image_url?: { url: string };
    }>;
    expect(content.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(content[0]!.text).toBe('and this one');
    expect(content[1]!.image_url!.url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  it("a stranger's DM with a photo and a document gets a pairing code; neither is fetched", async () => {
    const before = new Set(tg.files.keys());
    tg.userMessage({
      chatId: 999,
      userId: 999,
      name: 'Mallory',
      text: 'look',
      media: {
        photo: [{ width: 1, height: 1, data: PNG }],
        document: { name: 'secret.txt', mime: 'text/plain', data: Buffer.from('do not fetch') },
      },
    });
    const theirs = [...tg.files.keys()].filter((id) => !before.has(id));
    expect(theirs).toHaveLength(2);
    await waitFor(
      () => [...tg.sent.values()].find((m) => m.chat_id === '999' && /pairing code is/.test(m.text ?? '')),
      'the pairing code',
    );
    const asked = tg.calls.filter((c) => c.method === 'getFile').map((c) => String(c.params.file_id));
    expect(asked.filter((id) => theirs.includes(id))).toEqual([]);
    expect(theirs.map((id) => tg.files.get(id)!.downloads)).toEqual([0, 0]);
    // the allowed sender's media (the tests above) were fetched
    expect(asked.filter((id) => before.has(id)).length).toBeGreaterThanOrEqual(1);
  });

  it('a long reply comes back as a document with a summary caption', async () => {
    const long = `Plan for the week\n${'- a step of the plan\n'.repeat(30)}`;
    model.push({ text: long });
    tg.userMessage({ chatId: 111, userId: 111, name: 'Ann', text: 'write the full plan' });
    const doc = await waitFor(() => botMessages().find((m) => m.document), 'the document');
    expect(doc.document!.name).toBe('reply.md');
    expect(doc.document!.data.toString('utf8')).toBe(long);
    expect(doc.text).toBe(
      `Long reply (${long.length} characters), attached as reply.md. It begins: Plan for the week`,
    );
    expect(botMessages().some((m) => m.text.includes('a step of the plan'))).toBe(false);
  });
});
