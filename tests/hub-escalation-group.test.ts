/**
 * An escalated approval whose home channel is a group (the real daemon, the fake Telegram Bot API,
 * the scripted model): the owner's home channel is a group chat others are in. A press of `once`
 * there by a member the platform does not admit approves nothing — the folder survives and the
 * request stays open — while the owner's press counts.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { startFakeTelegram, type FakeTelegram, telegramConfigLines } from './support/fake-telegram.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import { startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let tg: FakeTelegram;
let root: string;
const scratch = mkdtempSync(join(tmpdir(), 'hermes-escalate-group-'));
const OWNER = 111;
const STRANGER = 999;
const GROUP = -1002;

beforeAll(async () => {
  model = await startFakeModelServer();
  tg = await startFakeTelegram();
  root = makeTestHome({
    modelUrl: model.url,
    env: `TELEGRAM_BOT_TOKEN=${tg.token}\nTELEGRAM_HOME_CHANNEL=${GROUP}\n`,
    config: [
      ...telegramConfigLines(tg), // allows user 111 only
      'approvals:',
      '  escalate_after: 1',
      '  escalate_to: telegram',
      'terminal:',
      '  sandbox: off',
      'gateway:',
      '  drain_timeout: 1',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'telegram');
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await tg?.close();
  await model?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('hub: an approval escalated to a group home channel', () => {
  it("a stranger's press in the group approves nothing; the owner's does", async () => {
    const victim = join(scratch, 'victim');
    mkdirSync(join(victim, 'sub'), { recursive: true });
    writeFileSync(join(victim, 'sub', 'keep.txt'), 'precious');
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
      { text: 'handled' },
    );
    const first = await connect({ root }, { name: 'tui', capabilities: { approvals: true } });
    const { session } = await first.request('session.create', { title: 'away' });
    await first.request('prompt.submit', { session_id: session.id, text: 'clean up' });
    await first.close();

    const ask = await tg.waitForCall(
      (c) => c.method === 'sendMessage' && c.params.chat_id === String(GROUP) && !!c.params.reply_markup,
      'the escalated approval in the group',
      15_000,
    );
    const once = (
      ask.params.reply_markup.inline_keyboard as Array<Array<{ text: string; callback_data: string }>>
    )
      .flat()
      .find((b) => /once/i.test(b.text))!;
    const msg = [...tg.sent.values()].find((m) => m.chat_id === String(GROUP) && m.reply_markup)!;
    const press = (userId: number): void =>
      tg.pressButton({
        chatId: GROUP,
        chatType: 'supergroup',
        userId,
        name: userId === OWNER ? 'Ann' : 'Mallory',
        messageId: msg.message_id,
        data: once.callback_data,
      });

    const acks = (): number => tg.calls.filter((c) => c.method === 'answerCallbackQuery').length;
    press(STRANGER);
    await waitFor(() => acks() >= 1, "the stranger's press to be answered");
    expect(existsSync(join(victim, 'sub', 'keep.txt'))).toBe(true);
    const probe = await connect({ root }, { name: 'probe', capabilities: { approvals: false } });
    try {
      const snap = await probe.request('session.attach', { session_id: session.id, history_limit: 1 });
      expect(snap.open_requests.map((r) => r.params.command)).toEqual([`rm -rf ${victim}`]);
    } finally {
      await probe.close();
    }

    press(OWNER);
    await waitFor(() => !existsSync(victim), "the owner's approval to run the command", 15_000);
  });
});
