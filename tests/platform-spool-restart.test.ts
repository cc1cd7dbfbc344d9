/**
 * The inbound spool (attachments of accepted chat messages, kept until their turn has them) with
 * two platforms in one profile and across kill -9: the real daemon with Telegram (the local Bot
 * API stand-in) and a webhook in the same profile, and the scripted model.
 *
 * - a platform that connects after a restart clears only its own messages' spools: a photo whose
 *   turn a kill -9 cut still reaches the model when Telegram reconnects after the webhook;
 * - a message whose spool cannot be written (the folder made unwritable) still runs with its
 *   photo, and a turn a kill -9 then cuts is run again naming the photo as lost, not silently
 *   without it;
 * - a command sent with a file leaves no spool behind.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionDB } from '@hermes/core/state';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { startFakeTelegram, type FakeTelegram, telegramConfigLines } from './support/fake-telegram.js';
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

// a 1×1 PNG (the daemon checks image bytes by their magic numbers)
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

type Part = { type: string; text?: string; image_url?: { url: string } };

/** The last user message of the newest model request (from index `from`) that contains `marker`. */
function userContentWith(marker: string, from = 0): unknown {
  const req = model.requests
    .slice(from)
    .reverse()
    .find((r) => JSON.stringify(r.body.messages).includes(marker));
  if (!req) return undefined;
  const users = (req.body.messages as Array<{ role: string; content: unknown }>).filter(
    (m) => m.role === 'user',
  );
  return users.at(-1)!.content;
}

const spoolDir = (): string => join(root, 'media', 'inbound');
/** Message folders in the spool (any depth up to the message's folder). */
function spooledMessages(): string[] {
  if (!existsSync(spoolDir())) return [];
  const out: string[] = [];
  for (const name of readdirSync(spoolDir())) {
    if (name.startsWith('in-')) out.push(name);
    else
      try {
        out.push(...readdirSync(join(spoolDir(), name)).filter((n) => n.startsWith('in-')));
      } catch {
        // a file: not a message's folder
      }
  }
  return out;
}

const botTexts = (): string[] => tg.textsTo(111);

beforeAll(async () => {
  model = await startFakeModelServer();
  tg = await startFakeTelegram();
  root = makeTestHome({
    modelUrl: model.url,
    env: `TELEGRAM_BOT_TOKEN=${tg.token}\nWEBHOOK_SECRET=webhook-secret-0123456789\n`,
    config: [
      ...telegramConfigLines(tg),
      '    streaming: false',
      '    reset: { mode: none }',
      '  webhook:',
      '    enabled: true',
      '    port: 0',
      '    path: /hooks/in',
      '    outbound_url: http://127.0.0.1:9/replies',
    ].join('\n'),
  });
  const cfg = join(root, 'config.yaml');
  writeFileSync(
    cfg,
    readFileSync(cfg, 'utf8').replace('  default: fake-model\n', '  default: fake-model\n  vision: true\n'),
  );
  await startDaemonWithPlatform(root, 'telegram');
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await tg?.close();
  await model?.close();
});

describe.sequential('inbound spool across restarts, two platforms in one profile', () => {
  it("a platform connecting after a restart keeps the other platform's spools: the cut turn runs again with its photo", async () => {
    model.push({ hang: true });
    tg.userMessage({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      text: 'what is in this picture',
      media: { photo: [{ width: 1, height: 1, data: PNG }] },
    });
    await waitFor(() => userContentWith('what is in this picture'), 'the turn asked the model');
    expect(spooledMessages()).toHaveLength(1);
    await killDaemonHard(root);
    // Telegram is unreachable for a while: the webhook connects (and recovers) first
    tg.unavailable = true;
    const asked = model.requests.length;
    model.push({ text: 'A tiny picture.' });
    await startDaemonWithPlatform(root, 'webhook');
    tg.unavailable = false;
    await waitFor(
      () => botTexts().includes('A tiny picture.'),
      'the reply after Telegram reconnected',
      60_000,
    );
    const content = userContentWith('what is in this picture', asked) as Part[];
    expect(Array.isArray(content) ? content.map((p) => p.type) : content).toEqual(['text', 'image_url']);
    expect(content[1]!.image_url!.url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    await waitFor(() => spooledMessages().length === 0, 'the spool removed once the turn ended');
  }, 90_000);

  it('a spool that cannot be written: the message still runs with its photo, and a turn a kill -9 cuts names the photo as lost', async () => {
    // junk where Telegram's spool folder goes (as a full disk or a broken mount would): writes fail
    rmSync(join(spoolDir(), 'telegram'), { recursive: true, force: true });
    mkdirSync(spoolDir(), { recursive: true });
    writeFileSync(join(spoolDir(), 'telegram'), 'junk');
    model.push({ hang: true });
    tg.userMessage({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      text: 'and what about this one',
      media: { photo: [{ width: 1, height: 1, data: PNG }] },
    });
    const first = (await waitFor(
      () => userContentWith('and what about this one') as Part[] | undefined,
      'the turn asked the model',
    ))!;
    expect(first.map((p) => p.type)).toEqual(['text', 'image_url']);
    await killDaemonHard(root);
    rmSync(join(spoolDir(), 'telegram'), { force: true });
    const asked = model.requests.length;
    model.push({ text: 'Please send it again.' });
    await startDaemonWithPlatform(root, 'telegram');
    await waitFor(() => botTexts().includes('Please send it again.'), 'the reply after the restart');
    const again = userContentWith('and what about this one', asked);
    const text = typeof again === 'string' ? again : (again as Part[]).map((p) => p.text ?? '').join('');
    expect(text).toMatch(
      /^and what about this one\n\n\(This message came with an attachment that was not kept/,
    );
    expect(text).toContain('photo-');
  }, 90_000);

  it('a command sent with a photo, and many photos in a row, leave no spool behind', async () => {
    const commands = (): number =>
      outcomeLines(root).filter((l) => l.includes('chat=111') && l.includes('reason="command /help"')).length;
    const before = commands();
    tg.userMessage({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      text: '/help',
      media: { photo: [{ width: 1, height: 1, data: PNG }] },
    });
    await waitFor(() => commands() > before, 'the command answered');
    for (let i = 0; i < 8; i++) {
      model.push({ text: `Photo ${i} seen.` });
      tg.userMessage({
        chatId: 111,
        userId: 111,
        name: 'Ann',
        text: `photo ${i}`,
        media: {
          photo: [{ width: 1, height: 1, data: PNG }],
          document: { name: `n${i}.txt`, mime: 'text/plain', data: Buffer.from(`note ${i}`) },
        },
      });
    }
    await waitFor(() => botTexts().includes('Photo 7 seen.'), 'the last reply');
    await waitFor(() => spooledMessages().length === 0, 'no spool left', 10_000);
  }, 90_000);

  it('a graceful stop while a photo downloads: after the start the photo is downloaded again and answered once', async () => {
    tg.stallDownloads = true;
    const before = new Set(tg.files.keys());
    tg.userMessage({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      text: 'slow photo',
      media: { photo: [{ width: 1, height: 1, data: PNG }] },
    });
    const id = await waitFor(() => [...tg.files.keys()].find((f) => !before.has(f)), 'the photo served');
    await waitFor(() => tg.files.get(id)!.downloads === 1, 'the download begun');
    const t0 = Date.now();
    const stopped = await runHermes(root, ['gateway', 'stop']);
    expect(stopped.code, stopped.stderr).toBe(0);
    // the stop does not wait for the stalled download (the drain timeout is 30 s)
    expect(Date.now() - t0).toBeLessThan(20_000);
    tg.stallDownloads = false;
    const asked = model.requests.length;
    model.push({ text: 'Slow photo seen.' });
    await startDaemonWithPlatform(root, 'telegram');
    await waitFor(() => botTexts().includes('Slow photo seen.'), 'the reply after the start', 60_000);
    const content = userContentWith('slow photo', asked) as Part[];
    expect(Array.isArray(content) ? content.map((p) => p.type) : content).toEqual(['text', 'image_url']);
    await waitFor(() => openDeliveries(root, 'telegram') === 0, 'the ledger settled');
    expect(botTexts().filter((t) => t === 'Slow photo seen.')).toHaveLength(1);
  }, 120_000);

  it("a turn a kill -9 cut whose row's record of the message is junk runs again saying its photo could not be read back", async () => {
    model.push({ hang: true });
    tg.userMessage({
      chatId: 111,
      userId: 111,
      name: 'Ann',
      text: 'damaged record photo',
      media: { photo: [{ width: 1, height: 1, data: PNG }] },
    });
    await waitFor(() => userContentWith('damaged record photo'), 'the turn asked the model');
    await killDaemonHard(root);
    const db = SessionDB.open(join(root, 'state.db'));
    try {
      const [row] = db.platforms.listDeliveries('telegram', ['running']);
      db.platforms.updateDelivery(row!.id, { inbound: '{"text": "damaged' });
    } finally {
      db.close();
    }
    const asked = model.requests.length;
    model.push({ text: 'Damaged record answered.' });
    await startDaemonWithPlatform(root, 'telegram');
    await waitFor(() => botTexts().includes('Damaged record answered.'), 'the reply after the restart');
    const again = userContentWith('damaged record photo', asked);
    const text = typeof again === 'string' ? again : (again as Part[]).map((p) => p.text ?? '').join('');
    expect(text).toMatch(
      /^damaged record photo\n\n\(This message came with attachments that could not be read back/,
    );
    await waitFor(() => spooledMessages().length === 0, 'the spool removed');
  }, 90_000);
});
