/**
 * Approvals that escalate: a session with no client attached asks for approval; after
 * `approvals.escalate_after` (1 s here) the owner's Telegram chat (TELEGRAM_HOME_CHANNEL, the fake
 * Bot API) gets it with `once` and `deny` buttons only; `hermes status` shows it escalated; a press
 * of `once` there runs the command; a client attaching later sees it answered from Telegram. A
 * forged button (an index the message does not have) approves nothing.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionStatus } from '@hermes/core/protocol';
import { connect, type DaemonClient } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { startFakeTelegram, type FakeTelegram, telegramConfigLines } from './support/fake-telegram.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';
import { startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let tg: FakeTelegram;
let root: string;
const clients: DaemonClient[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'hermes-escalate-'));

beforeAll(async () => {
  model = await startFakeModelServer();
  tg = await startFakeTelegram();
  root = makeTestHome({
    modelUrl: model.url,
    env: `TELEGRAM_BOT_TOKEN=${tg.token}\nTELEGRAM_HOME_CHANNEL=111\n`,
    config: [
      ...telegramConfigLines(tg),
      'approvals:',
      '  escalate_after: 1',
      '  escalate_to: telegram',
      'gateway:',
      '  drain_timeout: 1',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'telegram');
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await stopDaemon(root);
  await tg?.close();
  await model?.close();
});

describe('hub: escalated approvals', () => {
  it('reaches the Telegram owner after the delay; once there runs the command; a later client sees who answered', async () => {
    const junk = join(scratch, 'junk');
    mkdirSync(junk);
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${junk}` } }] },
      { echo: 'last_tool_result', prefix: 'done: ' },
    );
    // a terminal client starts the turn and leaves: no client is attached when the approval comes
    const first = await connect({ root }, { name: 'tui', capabilities: { approvals: true } });
    const { session } = await first.request('session.create', { title: 'away' });
    await first.request('session.attach', { session_id: session.id });
    await first.request('session.detach', { session_id: session.id });
    await first.request('prompt.submit', { session_id: session.id, text: 'clean up' });
    const t0 = Date.now();
    await first.close();

    const ask = await tg.waitForCall(
      (c) => c.method === 'sendMessage' && c.params.chat_id === '111' && !!c.params.reply_markup,
      'the escalated approval',
      15_000,
    );
    expect(ask.at - t0).toBeGreaterThanOrEqual(900); // after escalate_after, not at once
    expect(ask.params.text).toContain(`rm -rf ${junk}`);
    const buttons = (
      ask.params.reply_markup.inline_keyboard as Array<Array<{ text: string; callback_data: string }>>
    ).flat();
    expect(buttons).toHaveLength(2); // once and deny: no session / always from a phone
    expect(buttons.map((b) => b.text).join(' ')).not.toMatch(/session|always/i);

    // escalated, and visible so in hermes status
    const st = await runHermes(root, ['status', '--json']);
    const row = (JSON.parse(st.stdout) as { sessions: LiveSessionStatus[] }).sessions.find(
      (r) => r.session_id === session.id,
    );
    expect(row).toMatchObject({ state: 'approval', escalated_to: 'telegram', command: `rm -rf ${junk}` });

    // a forged button (a choice the message does not offer) approves nothing
    const msg = [...tg.sent.values()].find((m) => m.chat_id === '111' && m.reply_markup)!;
    const forged = buttons[0]!.callback_data.replace(/:\d+$/, ':2');
    tg.pressButton({ chatId: 111, userId: 111, name: 'Ann', messageId: msg.message_id, data: forged });
    await tg.waitForCall((c) => c.method === 'answerCallbackQuery', 'the forged press to be answered');
    expect(existsSync(junk)).toBe(true);

    const once = buttons.find((b) => /once/i.test(b.text))!;
    tg.pressButton({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      messageId: msg.message_id,
      data: once.callback_data,
    });
    await waitFor(() => !existsSync(junk), 'the approved command to run', 15_000);

    // the chat's message says it was answered; a client attaching later sees who answered, where
    await waitFor(
      () =>
        tg.calls.find(
          (c) =>
            c.method === 'editMessageText' && /answered from telegram by Ann/.test(String(c.params.text)),
        ),
      'the escalated message to say who answered',
    );
    const later = await connect({ root }, { name: 'tui-later', capabilities: { approvals: true } });
    clients.push(later);
    await waitFor(async () => {
      const snap = await later.request('session.attach', { session_id: session.id });
      return (
        snap.kind === 'snapshot' &&
        snap.messages.some((m) =>
          m.outcome?.approvals?.some((a) => a.by === 'telegram:Ann' && a.choice === 'once'),
        )
      );
    }, 'the stored answer from Telegram');
  });
});
