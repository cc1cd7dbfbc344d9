/**
 * Discord messages sent while the daemon is down, end to end (the real daemon, discord.js against
 * the local Discord of tests/support/fake-discord.ts, the scripted model): Discord replays nothing
 * to a new gateway session, so the restarted daemon reads each channel's history after the last
 * message it took (kept in `<home>/platforms/discord.json`). Messages sent during a kill -9 and
 * during a graceful stop are each answered exactly once after the start; the ones answered before
 * are not answered again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from './support/fake-discord.js';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';
import {
  killDaemonHard,
  openDeliveries,
  startDaemonWithPlatform,
  stopDaemon,
} from './support/platform-daemon.js';

let model: FakeModelServer;
let dc: FakeDiscord;
let root: string;
const ann = { id: '700000000000000011', name: 'Ann' };

const botTexts = (channelId: string): string[] =>
  [...dc.messages.values()].filter((m) => m.channel_id === channelId).map((m) => m.content);

beforeAll(async () => {
  model = await startFakeModelServer({ whenEmpty: { echo: 'last_user', prefix: 'echo: ' } });
  dc = await startFakeDiscord({ heartbeatIntervalMs: 2_000 });
  root = makeTestHome({
    modelUrl: model.url,
    env: `DISCORD_BOT_TOKEN=${dc.token}\n`,
    config: [
      'platforms:',
      '  discord:',
      '    enabled: true',
      `    api_base: ${dc.url}`,
      `    allowed_users: ["${ann.id}"]`,
      '    reset: { mode: none }',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'discord');
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await dc?.close();
  await model?.close();
});

describe('Discord: messages sent while the daemon is down', () => {
  it('are read from the channel history after a kill -9 and after a stop, each answered once', async () => {
    const chat = dc.dmChannel(ann);
    dc.userMessage({ user: ann, content: 'before' });
    await waitFor(() => botTexts(chat).includes('echo: before'), 'the first answer');
    await killDaemonHard(root);
    dc.userMessage({ user: ann, content: 'during the kill' });
    await startDaemonWithPlatform(root, 'discord');
    await waitFor(
      () => botTexts(chat).includes('echo: during the kill'),
      'the answer after the kill',
      20_000,
    );
    const stopped = await runHermes(root, ['gateway', 'stop']);
    expect(stopped.code, stopped.stderr).toBe(0);
    dc.userMessage({ user: ann, content: 'during the stop' });
    await startDaemonWithPlatform(root, 'discord');
    await waitFor(
      () => botTexts(chat).includes('echo: during the stop'),
      'the answer after the stop',
      20_000,
    );
    await waitFor(() => openDeliveries(root, 'discord') === 0, 'the ledger settled');
    expect(botTexts(chat)).toEqual(['echo: before', 'echo: during the kill', 'echo: during the stop']);
  }, 90_000);
});
