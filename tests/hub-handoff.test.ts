/**
 * Handoff round trip TUI → Telegram → TUI: a client attached like the TUI runs a turn, hands the
 * session off to Telegram (the owner's chat, TELEGRAM_HOME_CHANNEL, on the fake Bot API), sends a
 * prompt from the terminal (the chat gets its reply), the owner writes in the chat (the same
 * session answers; the terminal sees it live), then `/handoff tui` brings it back. One session in
 * SessionDB; every reply delivered once to each surface.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { SessionDB } from '@hermes/core/state';
import { connect, type DaemonClient } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { startFakeTelegram, type FakeTelegram, telegramConfigLines } from './support/fake-telegram.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import { startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let tg: FakeTelegram;
let root: string;
let tui: DaemonClient | undefined;

beforeAll(async () => {
  model = await startFakeModelServer();
  tg = await startFakeTelegram();
  root = makeTestHome({
    modelUrl: model.url,
    env: `TELEGRAM_BOT_TOKEN=${tg.token}\nTELEGRAM_HOME_CHANNEL=111\n`,
    config: [
      ...telegramConfigLines(tg),
      '    edit_interval_ms: 150',
      '    reset: { mode: none }',
      'gateway:',
      '  drain_timeout: 1',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'telegram');
}, 60_000);

afterAll(async () => {
  await tui?.close().catch(() => undefined);
  await stopDaemon(root);
  await tg?.close();
  await model?.close();
});

/** The final texts of the bot's messages in chat 111. */
const chatTexts = (): string[] => [...tg.sent.values()].filter((m) => m.chat_id === '111').map((m) => m.text);

describe('hub: handoff', () => {
  it('TUI → Telegram → TUI: one session, every reply once on each surface', async () => {
    tui = await connect({ root }, { name: 'tui', capabilities: { approvals: true } });
    const events: WireEvent[] = [];
    tui.onEvent((e) => events.push(e));
    const { session } = await tui.request('session.create', { title: 'handed' });
    await tui.request('session.attach', { session_id: session.id });
    const turnEnds = () => events.filter((e) => e.type === 'turn.end').length;

    model.push({ text: 'reply one' });
    await tui.request('prompt.submit', { session_id: session.id, text: 'first from tui' });
    await waitFor(() => turnEnds() === 1, 'the first turn');

    const handed = await tui.request('slash.exec', { session_id: session.id, command: '/handoff telegram' });
    expect(handed.output).toMatch(/^Handed off to telegram/);
    await waitFor(
      () => chatTexts().find((t) => t.includes('Continuing "handed" here')),
      'the summary in the chat',
    );
    expect(chatTexts().find((t) => t.startsWith('Continuing'))).toContain('reply one');

    // from the terminal: the chat gets the reply once
    model.push({ text: 'reply two' });
    await tui.request('prompt.submit', { session_id: session.id, text: 'second from tui' });
    await waitFor(() => chatTexts().includes('reply two'), 'the terminal turn reply in the chat');

    // from the phone: the same session answers; the terminal sees it live
    model.push({ text: 'reply three' });
    tg.userMessage({ chatId: 111, userId: 111, name: 'Owner', text: 'from phone' });
    await waitFor(() => chatTexts().includes('reply three'), 'the chat turn reply in the chat');
    await waitFor(() => turnEnds() === 3, 'the chat turn seen by the terminal');
    const chatTurn = events.find((e) => e.type === 'turn.start' && e.payload.text.includes('from phone'));
    expect(chatTurn).toBeDefined();

    // back to the terminal
    const back = await tui.request('slash.exec', { session_id: session.id, command: '/handoff tui' });
    expect(back.output).toMatch(/^Back here/);
    await waitFor(() => chatTexts().find((t) => t.startsWith('Back in the terminal')), 'the chat told');
    await new Promise((r) => setTimeout(r, 500)); // a late duplicate would show by now

    // every reply once on each surface
    const completes = events.flatMap((e) => (e.type === 'message.complete' ? [e.payload.text] : []));
    for (const r of ['reply one', 'reply two', 'reply three'])
      expect(completes.filter((t) => t === r)).toHaveLength(1);
    expect(chatTexts().filter((t) => t === 'reply two')).toHaveLength(1);
    expect(chatTexts().filter((t) => t === 'reply three')).toHaveLength(1);
    expect(chatTexts().filter((t) => t === 'reply one')).toHaveLength(0); // only inside the summary

    // one session holds the whole conversation
    const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
    try {
      expect(db.listSessions({ limit: 10 }).map((s) => s.id)).toEqual([session.id]);
      const users = db
        .getMessages(session.id, { limit: 100 })
        .filter((m) => m.role === 'user')
        .map((m) => m.content ?? '');
      expect(users).toHaveLength(3);
      expect(users[0]).toBe('first from tui');
      expect(users[1]).toBe('second from tui');
      expect(users[2]).toContain('from phone');
    } finally {
      db.close();
    }
  });
});
