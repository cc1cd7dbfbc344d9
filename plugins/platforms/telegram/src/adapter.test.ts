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
): Promise<{ tg: FakeTelegram; host: FakeHost; adapter: TelegramAdapter }> {
  const tg = await startFakeTelegram();
  cleanup.push(() => tg.close());
  const host = new FakeHost();
  const ctx = testPlatformContext({
    config: { api_base: tg.url, poll_timeout: 1 },
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
