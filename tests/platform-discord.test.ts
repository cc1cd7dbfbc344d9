/**
 * Discord end to end against a local Discord (tests/support/fake-discord.ts: the REST API and the
 * gateway protocol, discord.js unchanged): the real daemon with `platforms.discord.api_base`
 * pointed at it and the scripted model. A DM streamed by edits (at most one a second per message),
 * a guild channel answering only a mention, a thread kept as one session with replies in it, an
 * approval answered with a button by the owner and refused for a stranger, an image reaching the
 * model as an image part, and a long reply split at 2,000 characters. Run `npm run build` first.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from '@hermes/core/testing';
import { startFakeDiscord, type BotMessage, type FakeDiscord } from './support/fake-discord.js';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import { gatewayStatus, startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let dc: FakeDiscord;
let root: string;
/** The public thread `plans` under #general. */
let thread: string;
const scratch = mkdtempSync(join(tmpdir(), 'hermes-dc-scratch-'));
const ann = { id: '700000000000000011', name: 'Ann' };
const ben = { id: '700000000000000012', name: 'Ben' };
const stranger = { id: '700000000000000099', name: 'Mallory' };

/** The bot's messages in a channel, in order. */
const botMessages = (channelId: string): BotMessage[] =>
  [...dc.messages.values()].filter((m) => m.channel_id === channelId);
const botTexts = (channelId: string): string[] => botMessages(channelId).map((m) => m.content);

/** The user texts of model request `i` (the conversation the model saw). */
const userTurns = (i: number): string[] =>
  (model.requests[i]!.body.messages as Array<{ role: string; content: unknown }>)
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

beforeAll(async () => {
  model = await startFakeModelServer();
  dc = await startFakeDiscord();
  thread = dc.addThread('plans');
  root = makeTestHome({
    env: `DISCORD_BOT_TOKEN=${dc.token}\n`,
    config: [
      'model:',
      '  provider: custom',
      `  base_url: ${model.url}`,
      '  default: fake-model',
      '  vision: true',
      'platforms:',
      '  discord:',
      '    enabled: true',
      `    api_base: ${dc.url}`,
      `    allowed_users: ["${ann.id}", "${ben.id}"]`,
      '    reset: { mode: none }',
      'gateway:',
      '  drain_timeout: 2',
      'terminal:',
      '  sandbox: { platforms: off }',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'discord');
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await dc?.close();
  await model?.close();
});

describe('Discord platform', () => {
  it('a DM is answered by one message streamed by edits, at most one edit a second', async () => {
    const reply = 'Once upon a time an agent lived in a daemon and answered every message it was sent. '
      .repeat(3)
      .trim();
    model.push({ text: reply, chunkSize: 8, delayMs: 90 }); // ~3 s of streaming
    const chat = dc.dmChannel(ann);
    const asked = dc.userMessage({ user: ann, content: 'tell me a story' });
    await waitFor(() => botTexts(chat).includes(reply), 'the final reply text', 20_000);
    const msg = botMessages(chat).find((m) => m.content === reply)!;
    expect(msg.reply_to).toBe(asked);
    expect(msg.edits.length).toBeGreaterThanOrEqual(2);
    expect(msg.edits.slice(0, -1).every((t) => t.endsWith(' …'))).toBe(true);
    const gaps = msg.times.slice(1).map((t, i) => t - msg.times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(990);
    expect(botTexts(chat)).toEqual([reply]); // one message holds the reply
    expect(dc.calls.some((c) => c.method === 'POST' && c.path === `/channels/${chat}/typing`)).toBe(true);
    const status = (await gatewayStatus(root)).platforms?.find((p) => p.platform === 'discord');
    expect(status?.state).toBe('connected');
  });

  it('in a guild channel only a message that mentions the bot is answered', async () => {
    const before = model.requests.length;
    model.push({ text: 'Hello from the channel.' });
    dc.userMessage({ user: ben, channelId: dc.generalId, content: 'not for the bot' });
    dc.userMessage({ user: ben, channelId: dc.generalId, content: 'hi bot', mentionBot: true });
    await waitFor(() => botTexts(dc.generalId).includes('Hello from the channel.'), 'the channel reply');
    expect(model.requests.length).toBe(before + 1);
    const seen = userTurns(before).join('\n');
    expect(seen).toContain('hi bot');
    expect(seen).not.toContain('not for the bot');
  });

  it('two messages in a thread are one session, answered in the thread', async () => {
    const before = model.requests.length;
    model.push({ text: 'first thread answer' }, { text: 'second thread answer' });
    dc.userMessage({ user: ann, channelId: thread, content: 'thread one', mentionBot: true });
    await waitFor(() => botTexts(thread).includes('first thread answer'), 'the first thread reply');
    dc.userMessage({ user: ben, channelId: thread, content: 'thread two', mentionBot: true });
    await waitFor(() => botTexts(thread).includes('second thread answer'), 'the second thread reply');
    // the second request carries the first exchange: one session for the thread
    const second = userTurns(before + 1).join('\n');
    expect(second).toContain('thread one');
    expect(second).toContain('thread two');
    expect(botTexts(dc.generalId)).not.toContain('first thread answer');
  });

  it('an approval is answered with a button by the owner; a stranger is refused', async () => {
    const junk = join(scratch, 'junk');
    mkdirSync(junk);
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${junk}` } }] },
      { echo: 'last_tool_result', prefix: 'done: ' },
    );
    dc.userMessage({ user: ann, channelId: dc.generalId, content: 'please clean up', mentionBot: true });
    const prompt = await dc.waitUntil(
      () => botMessages(dc.generalId).find((m) => m.components.length > 0),
      'the approval message',
    );
    expect(prompt.content).toContain(`rm -rf ${junk}`);
    const buttons = prompt.components.flatMap((r: { components: object[] }) => r.components) as Array<{
      label: string;
      custom_id: string;
    }>;
    expect(buttons.map((b) => b.label)).toEqual([
      'Approve once',
      'Approve for session',
      'Always approve',
      'Deny',
    ]);

    const refused = dc.pressButton({ user: stranger, messageId: prompt.id, customId: buttons[0]!.custom_id });
    const refusal = await dc.waitUntil(
      () => dc.answers.find((a) => a.interactionId === refused),
      'the refusal',
    );
    expect(refusal).toMatchObject({ type: 4, ephemeral: true });
    expect(existsSync(junk)).toBe(true);
    expect(prompt.components.length).toBeGreaterThan(0);

    dc.pressButton({ user: ann, messageId: prompt.id, customId: buttons[0]!.custom_id });
    await waitFor(
      () => botTexts(dc.generalId).find((t) => t.startsWith('done: ')),
      'the reply after the command',
    );
    expect(existsSync(junk)).toBe(false);
    expect(prompt.components).toEqual([]);
    expect(prompt.content).toContain('**Approve once** — answered by Ann');
  });

  it('an image reaches the model as an image part', async () => {
    const before = model.requests.length;
    model.push({ text: 'A tiny image.' });
    const chat = dc.dmChannel(ben);
    dc.userMessage({
      user: ben,
      content: 'what is this?',
      attachments: [{ name: 'pixel.png', data: TINY_PNG, type: 'image/png' }],
    });
    await waitFor(() => botTexts(chat).includes('A tiny image.'), 'the reply about the image');
    const last = (model.requests[before]!.body.messages as Array<{ role: string; content: unknown }>).at(-1)!;
    expect(last.content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG.toString('base64')}` } },
    ]);
  });

  it("a stranger's DM with an attachment gets a pairing code; the attachment is never downloaded", async () => {
    const chat = dc.dmChannel(stranger);
    dc.userMessage({
      user: stranger,
      content: 'look at this',
      attachments: [{ name: 'secret.png', data: TINY_PNG, type: 'image/png' }],
    });
    await waitFor(() => botTexts(chat).some((t) => /pairing code is/.test(t)), 'the pairing code');
    expect(dc.downloads.filter((p) => p.endsWith('/secret.png'))).toEqual([]);
    // an allowed sender's attachment is still downloaded (the image test above)
    expect(dc.downloads.filter((p) => p.endsWith('/pixel.png'))).toHaveLength(1);
  });

  it('a reply over 2,000 characters is split into messages of at most 2,000', async () => {
    const line = `${'x'.repeat(98)}\n`;
    const reply = line.repeat(45).trim(); // 4,499 characters
    model.push({ text: reply, chunkSize: 500 });
    const chat = dc.dmChannel(ann);
    const before = botMessages(chat).length;
    dc.userMessage({ user: ann, content: 'a long one please' });
    await waitFor(
      () =>
        botMessages(chat).length >= before + 3 &&
        botTexts(chat).slice(before).join('\n').replace(/\s+/g, '') === reply.replace(/\s+/g, ''),
      'the three parts',
      20_000,
    );
    const parts = botTexts(chat).slice(before);
    expect(parts).toHaveLength(3);
    expect(parts.every((p) => p.length <= 2000)).toBe(true);
  });

  it('a reply over 6,000 characters arrives as reply.md with a summary line', async () => {
    const line = `${'y'.repeat(98)}\n`;
    const reply = `${line.repeat(70)}the end`; // 6,937 characters
    model.push({ text: reply, chunkSize: 2000 });
    const chat = dc.dmChannel(ann);
    const before = botMessages(chat).length;
    dc.userMessage({ user: ann, content: 'a very long one please' });
    await waitFor(
      () =>
        botMessages(chat)
          .slice(before)
          .some((m) => m.attachments.some((a) => a.filename === 'reply.md')),
      'the file',
      20_000,
    );
    const withFile = botMessages(chat)
      .slice(before)
      .find((m) => m.attachments.some((a) => a.filename === 'reply.md'))!;
    expect(withFile.attachments[0]!.data.toString('utf8')).toBe(reply);
    expect(
      botTexts(chat)
        .slice(before)
        .every((t) => t.length <= 2000),
    ).toBe(true);
  });

  it('a slash command is deferred, runs through the pipeline, and answers in the chat', async () => {
    const chat = dc.dmChannel(ann);
    const before = botMessages(chat).length;
    const requests = model.requests.length;
    const id = dc.slashCommand({ user: ann, name: 'status' });
    await waitFor(() => botMessages(chat).length > before, 'the answer of /status');
    expect(botTexts(chat).at(-1)).toMatch(/^Session \S+ · fake-model/);
    await dc.waitUntil(
      () => dc.answers.filter((a) => a.interactionId === id).length >= 2,
      'the edited reply',
    );
    expect(dc.answers.filter((a) => a.interactionId === id).map((a) => a.type)).toEqual([5, -1]);
    expect(model.requests.length).toBe(requests); // commands never reach the model
    const reg = dc.calls.find((c) => c.method === 'PUT' && c.path === `/applications/${dc.appId}/commands`);
    expect((reg?.body as Array<{ name: string }>).map((c) => c.name)).toContain('status');
  });
});
