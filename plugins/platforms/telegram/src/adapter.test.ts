/**
 * The Telegram adapter against a local Bot API stand-in (tests/support/fake-telegram.ts: the real
 * methods and `{ok, result}` envelopes over HTTP, long polling included).
 */
import { FakeHost, testPlatformContext } from '@hermes/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../../tests/support/fake-telegram.js';
import type { TelegramAdapter } from './adapter.js';
import { platform } from './index.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function start(
  token?: string,
  config: Record<string, unknown> = {},
): Promise<{ tg: FakeTelegram; host: FakeHost; adapter: TelegramAdapter }> {
  const tg = await startFakeTelegram();
  cleanup.push(() => tg.close());
  const host = new FakeHost();
  const ctx = testPlatformContext({
    config: { api_base: tg.url, poll_timeout: 1, ...config },
    secrets: { TELEGRAM_BOT_TOKEN: token ?? tg.token },
  });
  const adapter = host.attach((await platform.createAdapter(ctx)) as TelegramAdapter);
  cleanup.push(() => adapter.disconnect());
  return { tg, host, adapter };
}

describe('TelegramAdapter against the Bot API', () => {
  it('connects, hands a user message to the host, and sends the reply', async () => {
    const { tg, host, adapter } = await start();
    await adapter.connect();
    expect(adapter.username).toBe('hermes_test_bot');

    tg.userMessage({ chatId: 77, userId: 77, name: 'Ada', text: 'hello bot' });
    tg.userMessage({
      chatId: -100,
      userId: 78,
      name: 'Bob',
      text: '@hermes_test_bot in the group',
      chatType: 'supergroup',
      title: 'Team',
    });
    await host.message(1);
    expect(host.messages.map((m) => [m.source.chatType, m.source.chatId, m.source.userName, m.text])).toEqual(
      [
        ['dm', '77', 'Ada', 'hello bot'],
        ['group', '-100', 'Bob', 'in the group'],
      ],
    );
    expect(host.messages[0]!.dedupeKey).toMatch(/^77:\d+$/);

    const sent = await adapter.send('77', 'hello Ada');
    expect(sent.ok).toBe(true);
    expect(tg.sent.get(Number(sent.messageId))?.text).toBe('hello Ada');
    expect(await adapter.editMessage('77', sent.messageId!, 'hello Ada!')).toEqual({
      ok: true,
      messageId: sent.messageId,
    });
  });

  it('an update the pipeline could not take is fetched again, and the ones after it wait', async () => {
    const { tg, host, adapter } = await start();
    let refuse = 1;
    host.receipt = (m) =>
      refuse-- > 0
        ? { kind: 'unavailable', id: 'x', reason: 'database is locked' }
        : { kind: 'accepted', id: m.dedupeKey ?? '', durable: true };
    await adapter.connect();
    tg.userMessage({ chatId: 77, userId: 77, name: 'Ada', text: 'first' });
    tg.userMessage({ chatId: 77, userId: 77, name: 'Ada', text: 'second' });
    await host.message(2);
    // the first was handed on twice (refused once, then taken); the second only after it
    expect(host.messages.map((m) => m.text)).toEqual(['first', 'first', 'second']);
    expect(host.messages[0]!.dedupeKey).toBe(host.messages[1]!.dedupeKey);
  }, 20_000);

  it('a pressed approval button reaches the host as a button press', async () => {
    const { tg, host, adapter } = await start();
    await adapter.connect();
    const sent = await adapter.sendApproval('77', {
      requestId: 'req-1',
      command: 'rm -rf build',
      description: 'deletes files',
      choices: ['once', 'deny'],
    });
    const data = tg.sent.get(Number(sent.messageId))!.reply_markup.inline_keyboard[0][1].callback_data;
    tg.pressButton({ chatId: 77, userId: 77, name: 'Ada', messageId: Number(sent.messageId), data });
    await host.waitFor(() => host.buttons[0], 'a button press');
    expect(host.buttons[0]).toMatchObject({ requestId: 'req-1', value: 'deny', source: { chatId: '77' } });
  });

  it('a refused bot token fails connect for good (permanent)', async () => {
    const { adapter } = await start('999:WRONG-token-abcdefghijklmnop');
    await expect(adapter.connect()).rejects.toMatchObject({
      message: expect.stringContaining('(401)'),
      permanent: true,
    });
  });

  it('a send the Bot API refuses (400) is reported as final, not retried', async () => {
    const { adapter } = await start();
    await adapter.connect();
    expect(await adapter.send('77', 'x'.repeat(5000))).toMatchObject({ ok: false, retryable: false });
  });
});

describe('TelegramAdapter media', () => {
  const bytes = (n: number, fill = 1): Buffer => Buffer.alloc(n, fill);

  it('a photo (largest size within the cap) and an image document become images; the caption is the text', async () => {
    const { tg, host, adapter } = await start(undefined, { max_file_bytes: 1000 });
    await adapter.connect();
    tg.userMessage({
      chatId: 77,
      userId: 77,
      name: 'Ada',
      text: 'what is this?',
      media: {
        photo: [
          { width: 90, height: 90, data: bytes(100, 1) },
          { width: 320, height: 320, data: bytes(600, 2) },
          { width: 1280, height: 1280, data: bytes(5000, 3) },
        ],
      },
    });
    tg.userMessage({
      chatId: 77,
      userId: 77,
      name: 'Ada',
      text: '',
      media: { document: { name: 'shot.png', mime: 'image/png', data: bytes(50, 4) } },
    });
    await host.message(1);
    const [photo, doc] = host.messages;
    expect(photo!.text).toBe('what is this?');
    expect(photo!.images).toHaveLength(1);
    expect(Buffer.from(photo!.images![0]!.data!, 'base64')).toEqual(bytes(600, 2));
    expect(photo!.files).toBeUndefined();
    expect(doc!.text).toBe('');
    expect(doc!.images![0]).toMatchObject({ kind: 'image', mime: 'image/png', name: 'shot.png' });
    // the over-cap size was never fetched
    expect([...tg.files.values()].filter((f) => f.downloads > 0).map((f) => f.data.length)).toEqual([
      600, 50,
    ]);
  });

  it('nothing is fetched for a message the host does not authorize; its caption still comes through', async () => {
    const { tg, host, adapter } = await start(undefined, { max_file_bytes: 1000 });
    host.authorized = (m) => m.source.userId === '77';
    await adapter.connect();
    tg.userMessage({
      chatId: 66,
      userId: 66,
      name: 'Eve',
      text: 'look',
      media: {
        photo: [{ width: 90, height: 90, data: bytes(100, 1) }],
        document: { name: 'notes.txt', mime: 'text/plain', data: Buffer.from('hello') },
      },
    });
    const m = await host.message(0);
    expect(m.text).toBe('look');
    expect(m.images).toBeUndefined();
    expect(m.files).toBeUndefined();
    expect(tg.calls.filter((c) => c.method === 'getFile')).toEqual([]);
    expect([...tg.files.values()].every((f) => f.downloads === 0)).toBe(true);
  });

  it('documents, voice notes and audio become files; one over the cap is a note naming the key', async () => {
    const { tg, host, adapter } = await start(undefined, { max_file_bytes: 1000 });
    await adapter.connect();
    tg.userMessage({
      chatId: 77,
      userId: 77,
      name: 'Ada',
      text: 'read this',
      media: { document: { name: 'notes.txt', mime: 'text/plain', data: Buffer.from('hello') } },
    });
    tg.userMessage({ chatId: 77, userId: 77, name: 'Ada', text: '', media: { voice: { data: bytes(30) } } });
    tg.userMessage({
      chatId: 77,
      userId: 77,
      name: 'Ada',
      text: '',
      media: { audio: { name: 'song.mp3', mime: 'audio/mpeg', data: bytes(20) } },
    });
    tg.userMessage({
      chatId: 77,
      userId: 77,
      name: 'Ada',
      text: 'big one',
      media: { document: { name: 'big.zip', mime: 'application/zip', data: bytes(2000) } },
    });
    await host.message(3);
    const [doc, voice, audio, big] = host.messages;
    expect(doc!.files).toEqual([
      { name: 'notes.txt', mime: 'text/plain', kind: 'document', data: Buffer.from('hello') },
    ]);
    expect(voice!.files![0]).toMatchObject({ kind: 'voice', mime: 'audio/ogg' });
    expect(voice!.files![0]!.name).toMatch(/^voice-\d+\.ogg$/);
    expect(audio!.files![0]).toMatchObject({ kind: 'audio', name: 'song.mp3', mime: 'audio/mpeg' });
    expect(big!.files).toBeUndefined();
    expect(big!.text).toBe(
      'big one\n(The file "big.zip" of 2.0 KiB was not downloaded: it is over the 1000 bytes limit, platforms.telegram.max_file_bytes.)',
    );
  });

  it('sendFile uploads with sendDocument (multipart), caption and thread', async () => {
    const { tg, adapter } = await start();
    await adapter.connect();
    const r = await adapter.sendFile(
      '-100',
      { name: 'reply.md', data: Buffer.from('# long'), mime: 'text/markdown', caption: 'x'.repeat(2000) },
      { threadId: '7' },
    );
    expect(r.ok).toBe(true);
    const m = tg.sent.get(Number(r.messageId))!;
    expect(m.document).toEqual({ name: 'reply.md', mime: 'text/markdown', data: Buffer.from('# long') });
    expect(m.text).toHaveLength(1024);
    const call = tg.calls.find((c) => c.method === 'sendDocument')!;
    expect(call.params.message_thread_id).toBe('7');
    expect(adapter.canUploadFiles).toBe(true);
  });
});

describe('platforms.telegram settings', () => {
  it('name the key or the .env variable', () => {
    const token = { TELEGRAM_BOT_TOKEN: '123:abcdefghijklmnopqrstuv' };
    expect(platform.checkRequirements!(testPlatformContext({}))).toBe(
      'TELEGRAM_BOT_TOKEN is not set in the profile .env',
    );
    expect(
      platform.checkRequirements!(testPlatformContext({ secrets: { TELEGRAM_BOT_TOKEN: 'nope' } })),
    ).toBe('TELEGRAM_BOT_TOKEN: does not look like a bot token (<id>:<secret>)');
    expect(
      platform.validateConfig!(testPlatformContext({ config: { poll_timeout: 90 }, secrets: token })),
    ).toBe('platforms.telegram.poll_timeout: must be at most 50');
    expect(
      platform.validateConfig!(testPlatformContext({ config: { api_base: 'ftp://x' }, secrets: token })),
    ).toBe('platforms.telegram.api_base: expected an http(s) URL');
  });
});
