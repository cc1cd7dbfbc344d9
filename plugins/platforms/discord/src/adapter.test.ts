/**
 * The Discord adapter against the local Discord stand-in (tests/support/fake-discord.ts: the REST
 * routes and the gateway protocol discord.js speaks, unchanged SDK).
 */
import { FakeHost, testPlatformContext } from '@hermes/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../../../../tests/support/fake-discord.js';
import type { DiscordAdapter } from './adapter.js';
import { platform } from './index.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const ann = { id: '700000000000000011', name: 'Ann' };
const ben = { id: '700000000000000012', name: 'Ben' };

async function start(
  config: Record<string, unknown> = {},
  token?: string,
): Promise<{ dc: FakeDiscord; host: FakeHost; adapter: DiscordAdapter }> {
  const dc = await startFakeDiscord({ heartbeatIntervalMs: 1_000 });
  cleanup.push(() => dc.close());
  const host = new FakeHost();
  const ctx = testPlatformContext({
    config: { api_base: dc.url, ...config },
    secrets: { DISCORD_BOT_TOKEN: token ?? dc.token },
  });
  const adapter = host.attach((await platform.createAdapter(ctx)) as DiscordAdapter);
  cleanup.push(() => adapter.disconnect());
  return { dc, host, adapter };
}

describe('DiscordAdapter against the stand-in', () => {
  it('connects (IDENTIFY → READY), registers the slash commands, and hands a DM to the host', async () => {
    const { dc, host, adapter } = await start();
    await adapter.connect();
    expect(adapter.userId).toBe(dc.bot.id);
    expect(dc.gateway.identifies).toBe(1);
    const identify = dc.gateway.received.find((f) => f.op === 2)!;
    // Guilds | GuildMessages | DirectMessages | MessageContent
    expect(identify.d.intents).toBe(1 | 512 | 4096 | 32768);
    const reg = await dc.waitForCall((c) => c.method === 'PUT', 'the command registration');
    expect(reg.path).toBe(`/applications/${dc.appId}/commands`);
    expect((reg.body as Array<{ name: string }>).map((c) => c.name)).toEqual(
      expect.arrayContaining(['new', 'stop', 'status', 'model', 'help', 'approve', 'deny']),
    );

    const id = dc.userMessage({ user: ann, content: 'hello bot' });
    const m = await host.message(0);
    expect(m.text).toBe('hello bot');
    expect(m.dedupeKey).toBe(`message:${id}`);
    expect(m.source).toMatchObject({
      platform: 'discord',
      chatType: 'dm',
      chatId: dc.dmChannel(ann),
      userId: ann.id,
      userName: 'Ann',
      messageId: id,
    });
  });

  it('sends, edits at most once per second per message, nonces a delivery, and shows typing', async () => {
    const { dc, adapter } = await start();
    await adapter.connect();
    const chat = dc.dmChannel(ann);
    const sent = await adapter.send(chat, 'one', { replyTo: '123', deliveryId: 'in-abc#0' });
    expect(sent.ok).toBe(true);
    const again = await adapter.send(chat, 'one', { deliveryId: 'in-abc#0' });
    expect(again.messageId).toBe(sent.messageId); // the same nonce: no second message
    expect([...dc.messages.values()].filter((m) => m.channel_id === chat)).toHaveLength(1);
    const msg = dc.messages.get(sent.messageId!)!;
    expect(msg.reply_to).toBe('123');
    const post = dc.calls.find((c) => c.method === 'POST' && c.path.endsWith('/messages'))!;
    expect(post.body.allowed_mentions).toEqual({ parse: [] });

    await Promise.all([
      adapter.editMessage(chat, msg.id, 'one two'),
      adapter.editMessage(chat, msg.id, 'one two three'),
    ]);
    expect(msg.edits).toEqual(['one two', 'one two three']);
    const gaps = msg.times.slice(1).map((t, i) => t - msg.times[i]!);
    expect(gaps.every((g) => g >= 990)).toBe(true);

    await adapter.sendTyping(chat);
    await adapter.sendTyping(chat); // within 8 s: not sent again
    expect(dc.calls.filter((c) => c.path === `/channels/${chat}/typing`)).toHaveLength(1);
  });

  it('uploads a file as a multipart attachment', async () => {
    const { dc, adapter } = await start();
    await adapter.connect();
    const chat = dc.dmChannel(ann);
    const data = Buffer.from('x'.repeat(5000));
    const r = await adapter.sendFile(chat, {
      name: 'reply.md',
      data,
      mime: 'text/markdown',
      caption: 'the reply',
    });
    expect(r.ok).toBe(true);
    const m = dc.messages.get(r.messageId!)!;
    expect(m.content).toBe('the reply');
    expect(m.attachments).toEqual([{ filename: 'reply.md', size: 5000, data }]);
    const call = dc.calls.find((c) => c.files.length)!;
    expect(call.files[0]).toMatchObject({ field: 'files[0]', name: 'reply.md' });
    expect(call.body.attachments).toEqual([{ id: 0, filename: 'reply.md' }]);
  });

  it('in a guild channel answers only a mention or a reply to the bot, with the mention stripped', async () => {
    const { dc, host, adapter } = await start();
    await adapter.connect();
    dc.userMessage({ user: ann, channelId: dc.generalId, content: 'just chatting' });
    dc.userMessage({ user: ann, channelId: dc.generalId, content: 'hi there', mentionBot: true });
    const first = await host.message(0);
    expect(first.text).toBe('hi there');
    expect(first.source).toMatchObject({ chatType: 'group', chatId: dc.generalId, chatName: '#general' });
    const r = await adapter.send(dc.generalId, 'a reply');
    dc.userMessage({ user: ann, channelId: dc.generalId, content: 'and more', replyTo: r.messageId! });
    expect((await host.message(1)).text).toBe('and more');
    expect(host.messages).toHaveLength(2);
  });

  it('a thread is a thread of its parent channel; replies go into the thread', async () => {
    const { dc, host, adapter } = await start({ require_mention: false });
    const thread = dc.addThread('plans');
    await adapter.connect();
    dc.userMessage({ user: ann, channelId: thread, content: 'in the thread' });
    const m = await host.message(0);
    expect(m.source).toMatchObject({ chatType: 'thread', chatId: dc.generalId, threadId: thread });
    const r = await adapter.send(m.source.chatId!, 'thread reply', { threadId: thread });
    expect(dc.messages.get(r.messageId!)!.channel_id).toBe(thread);
  });

  it('approval buttons: a refusal is ephemeral, an answer edits the prompt and closes it', async () => {
    const { dc, host, adapter } = await start();
    await adapter.connect();
    const chat = dc.dmChannel(ann);
    const r = await adapter.sendApproval(chat, {
      requestId: 'req-1',
      command: 'rm -rf /tmp/x',
      description: 'deletes files',
      choices: ['once', 'session', 'deny'],
    });
    const msg = dc.messages.get(r.messageId!)!;
    const buttons = msg.components[0].components as Array<{ label: string; custom_id: string }>;
    expect(buttons.map((b) => b.label)).toEqual(['Approve once', 'Approve for session', 'Deny']);

    host.buttonOutcome = (p) =>
      p.source.userId === ann.id
        ? { kind: 'answered' }
        : { kind: 'refused', reason: 'You may not answer this question.' };
    const refused = dc.pressButton({ user: ben, messageId: msg.id, customId: buttons[0]!.custom_id });
    await dc.waitUntil(() => dc.answers.find((a) => a.interactionId === refused), 'the refusal');
    expect(dc.answers.find((a) => a.interactionId === refused)).toMatchObject({
      type: 4,
      ephemeral: true,
      data: { content: 'You may not answer this question.' },
    });
    expect(msg.components).toHaveLength(1); // still open

    const pressed = dc.pressButton({ user: ann, messageId: msg.id, customId: buttons[1]!.custom_id });
    await dc.waitUntil(() => dc.answers.find((a) => a.interactionId === pressed), 'the update');
    expect(host.buttons.map((b) => [b.source.userId, b.requestId, b.value])).toEqual([
      [ben.id, 'req-1', 'once'],
      [ann.id, 'req-1', 'session'],
    ]);
    expect(msg.components).toEqual([]);
    expect(msg.content).toContain('**Approve for session** — answered by Ann');

    const late = dc.pressButton({ user: ann, messageId: msg.id, customId: buttons[0]!.custom_id });
    await dc.waitUntil(() => dc.answers.find((a) => a.interactionId === late), 'the late press');
    expect(dc.answers.find((a) => a.interactionId === late)!.data.content).toBe('This question is closed.');
    expect(host.buttons).toHaveLength(2);
  });

  it('a slash command is deferred, then runs as its text', async () => {
    const { dc, host, adapter } = await start();
    await adapter.connect();
    const id = dc.slashCommand({ user: ann, name: 'approve', options: { scope: 'session' } });
    const m = await host.message(0);
    expect(m.text).toBe('/approve session');
    expect(m.dedupeKey).toBe(`interaction:${id}`);
    await dc.waitUntil(
      () => dc.answers.filter((a) => a.interactionId === id).length >= 2,
      'the edited reply',
    );
    const [deferred, edited] = dc.answers.filter((a) => a.interactionId === id);
    expect(deferred!.type).toBe(5);
    expect(edited!.data.content).toBe('`/approve session`');
  });

  it('downloads an image for the model and a document as a file', async () => {
    const { dc, host, adapter } = await start();
    await adapter.connect();
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    dc.userMessage({
      user: ann,
      content: 'look',
      attachments: [
        { name: 'a.png', data: png, type: 'image/png' },
        { name: 'notes.txt', data: Buffer.from('hello'), type: 'text/plain' },
      ],
    });
    const m = await host.message(0);
    // the test profile's model is unknown, so images go to files unless vision is on
    expect(m.files?.map((f) => [f.name, f.kind, f.data.length])).toEqual([
      ['a.png', 'image', png.length],
      ['notes.txt', 'document', 5],
    ]);
  });

  it('downloads nothing of a message the host does not authorize; its text still comes through', async () => {
    const { dc, host, adapter } = await start();
    host.authorized = (m) => m.source.userId === ann.id;
    await adapter.connect();
    dc.userMessage({
      user: ben,
      content: 'look',
      attachments: [{ name: 'secret.txt', data: Buffer.from('x'), type: 'text/plain' }],
    });
    const m = await host.message(0);
    expect(m.text).toBe('look');
    expect(m.files).toBeUndefined();
    expect(typeof m.fetchAttachments).toBe('function');
    expect(dc.downloads).toEqual([]);
    dc.userMessage({
      user: ann,
      content: '',
      attachments: [{ name: 'ok.txt', data: Buffer.from('y'), type: 'text/plain' }],
    });
    const ok = await host.message(1);
    expect(ok.text).toBe('[sent 1 attachment]');
    expect(ok.files?.map((f) => f.name)).toEqual(['ok.txt']);
    expect(dc.downloads).toHaveLength(1);
  });

  it('resumes a dropped gateway (RESUME) and gets the events sent meanwhile, once', async () => {
    const { dc, host, adapter } = await start();
    await adapter.connect();
    dc.gateway.drop();
    dc.userMessage({ user: ann, content: 'sent while down' });
    await host.message(0, 10_000);
    expect(dc.gateway.resumes).toBe(1);
    expect(dc.gateway.identifies).toBe(1);
    dc.userMessage({ user: ann, content: 'after' });
    await host.message(1);
    expect(host.messages.map((m) => m.text)).toEqual(['sent while down', 'after']);
    expect(host.fatal).toEqual([]);
  });

  it('a refused token fails for good; an authentication close after connect is reported', async () => {
    const { adapter } = await start({}, 'AAAAAAAAAAAAAAAA.BBBBBB.CCCCCCCCCCCCCCCC');
    const err = (await adapter.connect().catch((e: unknown) => e)) as Error & { permanent?: boolean };
    expect(err.message).toMatch(/token was refused/);
    expect(err.permanent).toBe(true);

    const ok = await start();
    await ok.adapter.connect();
    ok.dc.gateway.drop(4004);
    const fatal = await ok.host.waitFor(() => ok.host.fatal[0], 'the fatal error', 5_000);
    expect(fatal.message).toMatch(/4004/);
  });

  it('clarify choices are buttons; a press hands the chosen text to the host', async () => {
    const { dc, host, adapter } = await start();
    await adapter.connect();
    const chat = dc.dmChannel(ann);
    const r = await adapter.sendClarify(chat, {
      requestId: 'q-1',
      question: 'Which one?',
      choices: ['red', 'blue'],
    });
    const msg = dc.messages.get(r.messageId!)!;
    expect(msg.content).toContain('Which one?');
    const buttons = msg.components[0].components as Array<{ label: string; custom_id: string }>;
    expect(buttons.map((b) => b.label)).toEqual(['red', 'blue']);
    dc.pressButton({ user: ann, messageId: msg.id, customId: buttons[1]!.custom_id });
    await host.waitFor(() => host.buttons[0], 'the press');
    expect(host.buttons[0]).toMatchObject({ requestId: 'q-1', value: 'blue' });
    await dc.waitUntil(() => msg.components.length === 0, 'the prompt closed');
    expect(msg.content).toContain('**blue** — answered by Ann');
    // without choices: plain text
    const plain = await adapter.sendClarify(chat, { requestId: 'q-2', question: 'Why?' });
    expect(dc.messages.get(plain.messageId!)!.components).toEqual([]);
  });
});
