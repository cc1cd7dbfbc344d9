/**
 * Many Telegram chats at once across a kill -9, end to end: the real daemon with the local Bot API
 * stand-in and the scripted model (echo, then stalled so turns are cut). Six users each send three
 * messages with a document; the daemon is killed with some replies out, turns mid-run and prompts
 * queued; after the start every message is answered exactly once, in order per chat, the ledger
 * settles and the inbound spool is empty.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest, StaticStep } from './support/fake-model-server.js';
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

const USERS = [111, 112, 113, 114, 115, 116];
const PER_USER = 3;

let model: FakeModelServer;
let tg: FakeTelegram;
let root: string;
let modelLimit = 7;
let answered = 0;

function echoOrStall(_req: RecordedRequest): StaticStep {
  if (answered >= modelLimit) return { hang: true };
  answered++;
  return { echo: 'last_user', prefix: 'echo: ' };
}

beforeAll(async () => {
  model = await startFakeModelServer({ whenEmpty: echoOrStall });
  tg = await startFakeTelegram();
  root = makeTestHome({
    modelUrl: model.url,
    env: `TELEGRAM_BOT_TOKEN=${tg.token}\n`,
    config: [
      ...telegramConfigLines(tg).map((l) =>
        l.replace('allowed_users: [111]', `allowed_users: [${USERS.join(', ')}]`),
      ),
      '    streaming: false',
      '    reset: { mode: none }',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'telegram');
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await tg?.close();
  await model?.close();
});

/** The echo replies a chat got, by the message they answer (`m<user>-<n>`). */
const echoesIn = (chat: number): string[] =>
  tg
    .textsTo(chat)
    .filter((t) => t.startsWith('echo: '))
    .map((t) => /^echo: (m\d+-\d+)/.exec(t)?.[1] ?? t);

describe('Telegram: many chats across a kill -9', () => {
  it('every message with a document is answered exactly once, in order, and nothing stays spooled', async () => {
    for (let n = 0; n < PER_USER; n++)
      for (const u of USERS)
        tg.userMessage({
          chatId: u,
          userId: u,
          name: `U${u}`,
          text: `m${u}-${n}`,
          media: {
            document: { name: `d${u}-${n}.txt`, mime: 'text/plain', data: Buffer.from(`doc ${u} ${n}`) },
          },
        });
    await waitFor(() => USERS.reduce((a, u) => a + echoesIn(u).length, 0) >= modelLimit, 'the first replies');
    // turns hang now: let some start, then kill
    await waitFor(() => model.requests.length >= modelLimit + 3, 'turns cut mid-run');
    await killDaemonHard(root);
    modelLimit = Infinity;
    await startDaemonWithPlatform(root, 'telegram');
    await waitFor(() => USERS.every((u) => echoesIn(u).length >= PER_USER), 'every message answered', 90_000);
    await waitFor(() => openDeliveries(root, 'telegram') === 0, 'the ledger settled', 30_000);
    for (const u of USERS)
      expect(echoesIn(u), `chat ${u}`).toEqual([...Array(PER_USER).keys()].map((n) => `m${u}-${n}`));
    const spool = join(root, 'media', 'inbound', 'telegram');
    expect(existsSync(spool) ? readdirSync(spool) : []).toEqual([]);
  }, 150_000);
});
