/**
 * Discord under stress, end to end (the real daemon, discord.js against the local Discord of
 * tests/support/fake-discord.ts, the scripted model): the gateway connection cut while a reply
 * streams and a message arrives meanwhile — discord.js RESUMEs, the missed message is replayed,
 * and both are answered exactly once; and 20 messages from 4 users within a second, each answered
 * once, in each user's order; and a revoked token, which ends the retries with a clear status.
 * Run `npm run build` first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from './support/fake-discord.js';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import {
  gatewayStatus,
  openDeliveries,
  outcomeLines,
  startDaemonWithPlatform,
  stopDaemon,
} from './support/platform-daemon.js';

let model: FakeModelServer;
let dc: FakeDiscord;
let root: string;
const USERS = ['u1', 'u2', 'u3', 'u4'].map((n, i) => ({ id: `70000000000000010${i}`, name: n }));
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
      `    allowed_users: [${[ann, ...USERS].map((u) => `"${u.id}"`).join(', ')}]`,
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

describe('Discord reconnects and bursts', () => {
  it('a dropped gateway is resumed: the reply streaming meanwhile and a message sent meanwhile are answered once', async () => {
    const chat = dc.dmChannel(ann);
    const first = 'A reply that keeps streaming while the gateway connection is cut and resumed. '
      .repeat(2)
      .trim();
    const before = model.requests.length;
    model.push({ text: first, chunkSize: 6, delayMs: 60 }, { text: 'the second answer' });
    dc.userMessage({ user: ann, content: 'start streaming' });
    await waitFor(() => botTexts(chat).length === 1, 'the streamed message to start');
    const seq = dc.gateway.seq;
    dc.gateway.drop(); // the TCP connection is cut: the client sees 1006 and resumes
    dc.userMessage({ user: ann, content: 'sent while the gateway was down' });
    await waitFor(() => dc.gateway.resumes === 1 && dc.gateway.connected, 'the RESUME', 15_000);
    await waitFor(
      () => botTexts(chat).includes('the second answer'),
      'the reply to the missed message',
      20_000,
    );
    await waitFor(() => botTexts(chat).includes(first), 'the streamed reply to finish');
    expect(botTexts(chat)).toEqual([first, 'the second answer']);
    expect(model.requests.length - before).toBe(2); // neither turn ran twice
    const resume = dc.gateway.received.find((f) => f.op === 6)!;
    expect(resume.d.seq).toBeGreaterThanOrEqual(seq);
    expect(dc.gateway.identifies).toBe(1); // resumed, not a new session
    await waitFor(() => openDeliveries(root, 'discord') === 0, 'the ledger to settle');
    const status = (await gatewayStatus(root)).platforms?.find((p) => p.platform === 'discord');
    expect(status?.state).toBe('connected');
  });

  it('20 messages from 4 users within a second are each answered once, in order', async () => {
    const outcomesBefore = outcomeLines(root).length;
    const sent = new Map<string, string[]>();
    for (let i = 1; i <= 5; i++)
      for (const u of USERS) {
        const text = `${u.name}-${String(i).padStart(2, '0')}`;
        sent.set(u.id, [...(sent.get(u.id) ?? []), text]);
        dc.userMessage({ user: u, content: text });
      }
    await waitFor(
      () => USERS.every((u) => botTexts(dc.dmChannel(u)).length >= 5),
      'five replies for every user',
      30_000,
    );
    for (const u of USERS)
      expect(botTexts(dc.dmChannel(u))).toEqual(sent.get(u.id)!.map((t) => `echo: ${t}`));
    await waitFor(() => outcomeLines(root).length >= outcomesBefore + 20, 'twenty outcome lines');
    const lines = outcomeLines(root).slice(outcomesBefore);
    expect(lines).toHaveLength(20);
    expect(lines.every((l) => / outcome=reply$/.test(l))).toBe(true);
  });

  it('a revoked token ends the retries: `failed` with the reason, not retried forever', async () => {
    dc.revokeToken(); // the gateway closes with 4004; the reconnect's REST call gets 401
    await waitFor(
      async () =>
        (await gatewayStatus(root)).platforms?.find((p) => p.platform === 'discord' && p.state === 'failed'),
      'the failed state',
      20_000,
    );
    const status = (await gatewayStatus(root)).platforms!.find((p) => p.platform === 'discord')!;
    expect(status.error).toMatch(/token was refused/);
    expect(status.error).toMatch(/^connect: /); // refused at the reconnect, not retried (`failed`)
  });
});
