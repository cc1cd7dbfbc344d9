/**
 * Telegram under attack, end to end (the real daemon, tests/support/fake-telegram.ts, the scripted
 * model): in a group whose session its members share, an approval asked for one member is not
 * answered by a stranger's button press, nor by another allowed member's press or `/approve`, nor
 * by callback data naming a button that was never offered — each presser is told so, not "Got
 * it"; the asker's answer counts. A chat title
 * and display name full of newlines, terminal escapes and lone UTF-16 surrogates reach the model
 * as well-formed JSON and `hermes sessions list` as one inert line. A `kill -9` while a turn
 * waits for approval: the old button answers nothing, and the message gets exactly one outcome.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { startFakeTelegram, type FakeTelegram } from './support/fake-telegram.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';
import {
  killDaemonHard,
  openDeliveries,
  outcomeLines,
  startDaemonWithPlatform,
  stopDaemon,
} from './support/platform-daemon.js';

let model: FakeModelServer;
let tg: FakeTelegram;
let root: string;
const scratch = mkdtempSync(join(tmpdir(), 'hermes-tg-attack-'));
const GROUP = -1001;
const OWNER = 111;
const MEMBER = 222;
const STRANGER = 999;

const botTexts = (chatId: number): string[] => tg.textsTo(chatId);
/** A lone UTF-16 surrogate anywhere in a string. */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

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
      `    allowed_users: [${OWNER}, ${MEMBER}]`,
      '    group_sessions_per_user: false',
      '    streaming: false',
      '    reset: { mode: none }',
      '    footer: false',
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
  rmSync(scratch, { recursive: true, force: true });
});

describe('Telegram attacks', () => {
  it('an approval in a shared group is answered only by the member who asked', async () => {
    const junk = join(scratch, 'junk');
    mkdirSync(junk);
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${junk}` } }] },
      { echo: 'last_tool_result', prefix: 'done: ' },
    );
    const inGroup = { chatId: GROUP, chatType: 'supergroup' as const, title: 'Ops' };
    tg.userMessage({ ...inGroup, userId: OWNER, name: 'Ann', text: 'please clean up' });
    const ask = await tg.waitForCall(
      (c) => c.method === 'sendMessage' && c.params.chat_id === String(GROUP) && !!c.params.reply_markup,
      'the approval message',
    );
    const buttons = (
      ask.params.reply_markup.inline_keyboard as Array<Array<{ text: string; callback_data: string }>>
    ).flat();
    const approvalMsg = [...tg.sent.values()].find((m) => m.chat_id === String(GROUP) && m.reply_markup)!;
    const press = (userId: number, data: string): void =>
      tg.pressButton({
        chatId: GROUP,
        chatType: 'supergroup',
        userId,
        name: 'x',
        messageId: approvalMsg.message_id,
        data,
      });
    const answered = (): number => tg.calls.filter((c) => c.method === 'answerCallbackQuery').length;

    const acks = (): string[] =>
      tg.calls.filter((c) => c.method === 'answerCallbackQuery').map((c) => String(c.params.text));

    press(STRANGER, buttons[2]!.callback_data); // "Always approve" by someone nobody allowed
    await waitFor(() => answered() >= 1, 'the stranger press to be acknowledged');
    // the presser is told the truth: not "Got it"
    expect(acks()[0]).toBe('You may not answer this question.');
    press(MEMBER, buttons[0]!.callback_data); // another allowed member of the group
    await waitFor(
      () => botTexts(GROUP).includes('Only the person who asked can answer this approval.'),
      'the member press to be refused',
    );
    tg.userMessage({ ...inGroup, userId: MEMBER, name: 'Ben', text: '/approve always' });
    await waitFor(
      () =>
        botTexts(GROUP).filter((t) => t === 'Only the person who asked can answer this approval.').length >=
        2,
      "the member's /approve to be refused",
    );
    // callback data naming a button index that was never offered answers nothing
    const [kind, token] = buttons[0]!.callback_data.split(':');
    press(OWNER, `${kind}:${token}:7`);
    await waitFor(() => answered() >= 3, 'the forged press to be acknowledged');
    expect(acks().slice(1)).toEqual([
      'Only the person who asked can answer this approval.',
      'This question is closed',
    ]);
    expect(existsSync(junk)).toBe(true);

    press(OWNER, buttons[0]!.callback_data);
    await waitFor(
      () => botTexts(GROUP).find((t) => t.startsWith('done: ')),
      'the reply after the command ran',
    );
    expect(existsSync(junk)).toBe(false);
  });

  it('hostile chat titles and names reach the model well-formed and the session list as one line', async () => {
    model.push({ text: 'noted' });
    const title = 'Ops\n\u001b[2J\u001b]0;owned\u0007 \ud800room\u202e';
    tg.userMessage({
      chatId: -2002,
      chatType: 'group',
      title,
      userId: OWNER,
      name: 'Ann\r\n\u001b[31mADMIN\udfff',
      text: 'half an emoji \ud83d',
    });
    await waitFor(() => botTexts(-2002).includes('noted'), 'the reply');
    const request = model.requests.at(-1)!;
    const strings = (request.body.messages as { content: unknown }[]).map((m) => JSON.stringify(m.content));
    expect(strings.some((s) => LONE.test(JSON.parse(s) as string))).toBe(false);
    expect(JSON.stringify(request.body.messages)).toContain('half an emoji \ufffd');
    const list = await runHermes(root, ['sessions', 'list', '--source', 'telegram']);
    expect(list.code).toBe(0);
    const line = list.stdout.split('\n').find((l) => l.includes('Ops'));
    expect(line).toBeDefined();
    // eslint-disable-next-line no-control-regex
    expect(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/.test(line!)).toBe(false);
  });

  it('kill -9 while a turn awaits approval: the old button answers nothing; one outcome for the message', async () => {
    const junk = join(scratch, 'junk-kill');
    mkdirSync(junk);
    model.push({ toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${junk}` } }] });
    tg.userMessage({ chatId: OWNER, userId: OWNER, name: 'Ann', text: 'clean the other one' });
    const ask = await tg.waitForCall(
      (c) =>
        c.method === 'sendMessage' &&
        c.params.chat_id === String(OWNER) &&
        !!c.params.reply_markup &&
        String(c.params.text).includes(junk),
      'the approval message',
    );
    const buttons = (
      ask.params.reply_markup.inline_keyboard as Array<Array<{ text: string; callback_data: string }>>
    ).flat();
    const oldMsg = [...tg.sent.values()].find((m) => m.chat_id === String(OWNER) && m.text.includes(junk))!;
    await killDaemonHard(root);
    // after the restart the turn is run again (no tool ran): it asks again, or the sender is told
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${junk}` } }] },
      { echo: 'last_tool_result', prefix: 'after restart: ' },
    );
    const asksBefore = tg.calls.filter((c) => c.method === 'sendMessage' && !!c.params.reply_markup).length;
    await startDaemonWithPlatform(root, 'telegram');
    tg.pressButton({
      chatId: OWNER,
      userId: OWNER,
      name: 'Ann',
      messageId: oldMsg.message_id,
      data: buttons[0]!.callback_data,
    });
    await tg.waitForCall(
      (c) => c.method === 'answerCallbackQuery' && c.params.text === 'This question is closed',
      'the old button to be answered as closed',
    );
    expect(existsSync(junk)).toBe(true);
    await waitFor(
      () => tg.calls.filter((c) => c.method === 'sendMessage' && !!c.params.reply_markup).length > asksBefore,
      'the approval asked again',
    );
    const again = tg.calls.filter((c) => c.method === 'sendMessage' && !!c.params.reply_markup).at(-1)!;
    const newMsg = [...tg.sent.values()].filter((m) => m.chat_id === String(OWNER) && m.reply_markup).at(-1)!;
    expect(String(again.params.text)).toContain(junk);
    const deny = (
      again.params.reply_markup.inline_keyboard as Array<Array<{ text: string; callback_data: string }>>
    )
      .flat()
      .find((b) => b.text.includes('Deny'))!;
    tg.pressButton({
      chatId: OWNER,
      userId: OWNER,
      name: 'Ann',
      messageId: newMsg.message_id,
      data: deny.callback_data,
    });
    await waitFor(
      () => botTexts(OWNER).filter((t) => t.startsWith('after restart: ')).length === 1,
      'the one reply',
    );
    expect(existsSync(junk)).toBe(true);
    await waitFor(() => openDeliveries(root, 'telegram') === 0, 'no message left open');
    // the message (this chat's only one) has one outcome over both daemon lives; a copy the
    // restarted daemon polled again (its offset was not committed before the kill) is a duplicate
    const lines = outcomeLines(root).filter((l) => l.includes(`chat=${OWNER} `));
    const final = lines.filter((l) => !l.includes('reason="duplicate"'));
    expect(final, lines.join('\n')).toHaveLength(1);
    expect(final[0]).toContain(`ext=${OWNER}:`);
    expect(final[0]).toContain('outcome=reply');
  });
});
