/**
 * A chat where nobody may approve (the real daemon, tests/support/fake-telegram.ts, the scripted
 * model): Telegram with `admins` set, and a message from an allowed user who is not an admin —
 * only the asker may answer their turn's approvals, and they may not approve. So a dangerous
 * command of that turn is denied at once (not after `approvals.timeout`), the folder is still
 * there, the chat is told why, and the model is told that no one who could approve it was there —
 * not that the user denied it, nor that nobody answered in time.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { startFakeTelegram, telegramConfigLines, type FakeTelegram } from './support/fake-telegram.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import { startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let tg: FakeTelegram;
let root: string;
const scratch = mkdtempSync(join(tmpdir(), 'hermes-tg-noapprover-'));
const ADMIN = 111;
const USER = 222;

beforeAll(async () => {
  model = await startFakeModelServer();
  tg = await startFakeTelegram();
  root = makeTestHome({
    modelUrl: model.url,
    env: `TELEGRAM_BOT_TOKEN=${tg.token}\n`,
    config: [
      ...telegramConfigLines(tg).filter((l) => !l.includes('allowed_users')),
      `    allowed_users: [${ADMIN}, ${USER}]`,
      `    admins: ['${ADMIN}']`,
      '    streaming: false',
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

describe('Telegram: a turn nobody in the chat may approve', () => {
  it('denies its dangerous command at once, truthfully, and the folder survives', async () => {
    const victim = join(scratch, 'victim');
    mkdirSync(join(victim, 'sub'), { recursive: true });
    writeFileSync(join(victim, 'sub', 'keep.txt'), 'precious');
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
      { text: 'I could not do that.' },
    );
    const started = Date.now();
    tg.userMessage({ chatId: USER, userId: USER, name: 'Ben', text: 'clean up the victim folder' });
    await waitFor(
      () => tg.textsTo(USER).some((t) => t.includes('I could not do that.')),
      'the reply to the user',
      30_000,
    );
    expect(Date.now() - started).toBeLessThan(30_000); // not approvals.timeout (300 s)
    expect(existsSync(join(victim, 'sub', 'keep.txt'))).toBe(true);
    // no approval buttons were offered; the chat is told why it was denied
    expect(tg.calls.some((c) => c.method === 'sendMessage' && !!c.params.reply_markup)).toBe(false);
    expect(tg.textsTo(USER).join('\n')).toMatch(/you may not approve .* denied/i);
    const msgs = model.requests[before + 1]!.body.messages as Array<{ role: string; content: string }>;
    const told = msgs
      .filter((m) => m.role === 'tool')
      .map((m) => m.content)
      .join('\n');
    expect(told).toMatch(/^BLOCKED: /);
    expect(told).toMatch(/no one who could approve it is here/);
    expect(told).not.toMatch(/user denied|did not answer/i);
  }, 60_000);
});
