/**
 * Telegram end to end against a local Bot API server: the real daemon with
 * `platforms.telegram` pointed at tests/support/fake-telegram.ts, long polling, a reply streamed
 * by throttled edits, an approval answered with an inline button, and an approval of a platform
 * session answered from an attached TUI client (first answer wins).
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventOf } from '@hermes/core/protocol';
import { SessionDB } from '@hermes/core/state';
import { connect } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { startFakeTelegram, type FakeTelegram } from './support/fake-telegram.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';
import { startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let tg: FakeTelegram;
let root: string;
const scratch = mkdtempSync(join(tmpdir(), 'hermes-tg-scratch-'));

const botTexts = (chatId: number): string[] => tg.textsTo(chatId);

beforeAll(async () => {
  model = await startFakeModelServer();
  tg = await startFakeTelegram();
  root = makeTestHome({
    modelUrl: model.url,
    env: `TELEGRAM_BOT_TOKEN=${tg.token}\n`,
    config: [
      'platforms:',
      '  telegram:',
      '    enabled: true',
      `    api_base: ${tg.url}`,
      '    poll_timeout: 2',
      '    allowed_users: [111, 222]',
      '    edit_interval_ms: 150',
      '    reset: { mode: none }',
      'gateway:',
      '  drain_timeout: 2',
      // approvals of commands on files outside a workspace: on the bare host here (the sandbox of
      // the platforms lane has its own test: sandbox-lanes.test.ts)
      'terminal:',
      '  sandbox: { platforms: off }',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'telegram');
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await tg?.close();
  await model?.close();
});

describe('Telegram platform', () => {
  it('streams a reply by editing one message', async () => {
    const reply =
      'Once upon a time an agent lived in a daemon and answered every message it was sent, patiently. '
        .repeat(2)
        .trim();
    model.push({ text: reply, chunkSize: 6, delayMs: 15 });
    tg.userMessage({ chatId: 111, userId: 111, name: 'Ann', text: 'tell me a story' });
    await waitFor(() => botTexts(111).includes(reply), 'the final reply text');
    const msg = [...tg.sent.values()].find((m) => m.text === reply)!;
    expect(msg.edits).toBeGreaterThanOrEqual(2);
    const edits = tg.calls.filter(
      (c) => c.method === 'editMessageText' && c.params.message_id === msg.message_id,
    );
    expect(edits.slice(0, -1).every((c) => String(c.params.text).endsWith(' …'))).toBe(true);
    expect(edits.at(-1)!.params.text).toBe(reply);
    // one message holds the whole reply: no second send of it
    expect(botTexts(111)).toEqual([reply]);
    expect(tg.calls.some((c) => c.method === 'sendChatAction' && c.params.chat_id === '111')).toBe(true);
  });

  it('asks approval with inline buttons; a press approves and the command runs', async () => {
    const junk = join(scratch, 'junk');
    mkdirSync(junk);
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${junk}` } }] },
      { echo: 'last_tool_result', prefix: 'done: ' },
    );
    tg.userMessage({ chatId: 222, userId: 222, name: 'Ben', text: 'please clean up' });
    const ask = await tg.waitForCall(
      (c) => c.method === 'sendMessage' && c.params.chat_id === '222' && !!c.params.reply_markup,
      'the approval message',
    );
    expect(ask.params.text).toContain(`rm -rf ${junk}`);
    const buttons = (
      ask.params.reply_markup.inline_keyboard as Array<Array<{ text: string; callback_data: string }>>
    ).flat();
    expect(buttons.map((b) => b.text)).toEqual([
      '✅ Approve once',
      'Approve for session',
      'Always approve',
      '❌ Deny',
    ]);
    const approvalMsg = [...tg.sent.values()].find((m) => m.chat_id === '222' && m.reply_markup)!;
    tg.pressButton({
      chatId: 222,
      userId: 222,
      name: 'Ben',
      messageId: approvalMsg.message_id,
      data: buttons[0]!.callback_data,
    });
    await tg.waitForCall((c) => c.method === 'answerCallbackQuery', 'the button press to be answered');
    await waitFor(() => botTexts(222).find((t) => t.startsWith('done: ')), 'the reply after the command ran');
    expect(existsSync(junk)).toBe(false);
  });

  it('an attached TUI sees the platform turn and its approval; the first answer wins', async () => {
    const tui = await connect({ root }, { name: 'tui', capabilities: { approvals: true } });
    try {
      const { sessions } = await tui.request('session.list', { source: 'telegram' });
      const ann = sessions.find((s) => s.title === 'telegram · Ann')!;
      expect(ann).toBeDefined();
      await tui.request('session.attach', { session_id: ann.id });
      const asked: string[] = [];
      tui.onServerRequest('approval.request', (p) => {
        asked.push(p.command);
        return { choice: 'once' };
      });
      const junk = join(scratch, 'junk2');
      mkdirSync(junk);
      model.push(
        { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${junk}` } }] },
        { echo: 'last_tool_result', prefix: 'done again: ' },
      );
      const seen = tui.waitForEvent((e) => e.type === 'turn.end', 20_000);
      tg.userMessage({ chatId: 111, userId: 111, name: 'Ann', text: 'clean again' });
      const started = await tui.waitForEvent((e) => e.type === 'turn.start', 20_000);
      expect(eventOf(started, 'turn.start').payload.text).toBe('clean again');
      await seen;
      expect(asked).toEqual([`rm -rf ${junk}`]);
      await waitFor(() => botTexts(111).find((t) => t.startsWith('done again: ')), 'the reply');
      expect(botTexts(111)).toContain('(Answered in a terminal: once.)');
      expect(existsSync(junk)).toBe(false);
    } finally {
      await tui.close();
    }
  });

  it('shutdown tells a chat with a running turn, drains, and leaves the session resumable', async () => {
    model.push({ hang: true, text: 'working on it' });
    tg.userMessage({ chatId: 222, userId: 222, name: 'Ben', text: 'a long task' });
    await waitFor(
      () => model.requests.find((r) => JSON.stringify(r.body.messages).includes('a long task')),
      'the model call',
    );
    const stopped = await runHermes(root, ['gateway', 'stop']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(botTexts(222)).toContain(
      'The agent is restarting; your request will be picked up again when it is back.',
    );
    expect(botTexts(222)).toContain('working on it\n[stopped]'); // the streamed message, finished
    const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
    try {
      const ben = db.listSessions({ source: 'telegram' }).find((s) => s.title === 'telegram · Ben')!;
      expect(['interrupted', 'resume_pending']).toContain(ben.state); // recovered or continued at the next start
    } finally {
      db.close();
    }
  });
});
