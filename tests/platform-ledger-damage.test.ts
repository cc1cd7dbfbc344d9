/**
 * Damaged delivery-ledger rows after a kill -9, end to end: the real daemon with Telegram (the
 * local Bot API stand-in) and the scripted model. A row whose stored reply options (`send_opts`)
 * or message (`inbound`) were damaged while the daemon was down still gets its reply, and the
 * chat's later messages are not held behind it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionDB } from '@hermes/core/state';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { startFakeTelegram, type FakeTelegram, telegramConfigLines } from './support/fake-telegram.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import {
  killDaemonHard,
  openDeliveries,
  startDaemonWithPlatform,
  stopDaemon,
} from './support/platform-daemon.js';

let model: FakeModelServer;
let tg: FakeTelegram;
let root: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  tg = await startFakeTelegram();
  root = makeTestHome({
    modelUrl: model.url,
    env: `TELEGRAM_BOT_TOKEN=${tg.token}\n`,
    config: [...telegramConfigLines(tg), '    streaming: false', '    reset: { mode: none }'].join('\n'),
  });
  await startDaemonWithPlatform(root, 'telegram');
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await tg?.close();
  await model?.close();
});

describe('damaged ledger rows across a kill -9', () => {
  it('a running turn whose reply options are junk and a queued one whose message is junk are both answered, and the chat goes on', async () => {
    model.push({ hang: true });
    tg.userMessage({ chatId: 111, userId: 111, name: 'Ann', text: 'first question' });
    await waitFor(
      () => model.requests.find((r) => JSON.stringify(r.body.messages).includes('first question')),
      'the first turn asked the model',
    );
    tg.userMessage({ chatId: 111, userId: 111, name: 'Ann', text: 'second question' });
    // the second waits in the session's queue: its row has its prompt
    await waitFor(() => {
      const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
      try {
        return db.platforms
          .listDeliveries('telegram', ['accepted'])
          .some((r) => r.prompt_text === 'second question');
      } finally {
        db.close();
      }
    }, 'the second prompt queued');
    await killDaemonHard(root);
    const db = SessionDB.open(join(root, 'state.db'));
    try {
      const rows = db.platforms.listDeliveries('telegram', ['accepted', 'running']);
      expect(rows.map((r) => r.state)).toEqual(['running', 'accepted']);
      db.platforms.updateDelivery(rows[0]!.id, { send_opts: '{"replyTo": "1' });
      db.platforms.updateDelivery(rows[1]!.id, { inbound: '{"text": "second' });
    } finally {
      db.close();
    }
    model.push({ text: 'First answered.' }, { text: 'Second answered.' }, { text: 'Third answered.' });
    await startDaemonWithPlatform(root, 'telegram');
    await waitFor(() => tg.textsTo(111).includes('Second answered.'), 'both replies', 30_000);
    tg.userMessage({ chatId: 111, userId: 111, name: 'Ann', text: 'third question' });
    await waitFor(() => tg.textsTo(111).includes('Third answered.'), 'the next reply');
    const texts = tg.textsTo(111).filter((t) => /answered\.$/.test(t));
    expect(texts).toEqual(['First answered.', 'Second answered.', 'Third answered.']);
    await waitFor(() => openDeliveries(root, 'telegram') === 0, 'the ledger settled');
  }, 90_000);
});
