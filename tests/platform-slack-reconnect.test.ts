/**
 * Slack end to end under drops and load: the Socket Mode connection closed by the server (a plain
 * drop, `disconnect` envelopes) while turns run, an envelope whose ack was lost and that Slack
 * delivers again (to the same daemon, and to a restarted one; a file in it is not downloaded
 * twice), 20 messages in a second from 4 users, and a token refused on reconnect (the
 * platform ends `failed`, not retried forever) — every message answered exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliveDiscovery, waitFor } from './support/gateway-process.js';
import { runHermes } from './support/hermes-cli.js';
import {
  deliveries,
  gatewayStatus,
  killDaemonHard,
  openDeliveries,
  outcomeLines,
  startDaemonWithPlatform,
} from './support/platform-daemon.js';
import { startSlackWorld, type SlackWorld } from './support/slack-daemon.js';

let w: SlackWorld;

beforeAll(async () => {
  w = await startSlackWorld();
}, 60_000);

afterAll(async () => {
  await w?.stop();
});

const slackState = async (): Promise<string | undefined> =>
  (await gatewayStatus(w.root)).platforms?.find((p) => p.platform === 'slack')?.state;

/** Bot messages in `channel` whose text is exactly `text`. */
const count = (channel: string, text: string): number =>
  w.botMessages(channel).filter((m) => m.text === text).length;

describe('Slack platform: drops and load', () => {
  it('a drop during a turn, a lost ack and disconnect envelopes: every message answered once', async () => {
    const { slack, model } = w;
    // a turn still streaming when the socket drops: its reply goes over the Web API regardless
    model.push({ text: 'a slow answer that keeps streaming for a while', chunkSize: 3, delayMs: 60 });
    slack.userMessage({ channel: 'D1', user: 'U1', text: 'slow one' });
    await waitFor(() => model.requests.length >= 1, 'the model call');
    slack.dropSocket();
    await slack.waitFor(() => slack.connections() === 2 && slack.connected(), 'the socket opened again');
    await waitFor(
      () => count('D1', 'a slow answer that keeps streaming for a while') === 1,
      'the slow answer',
      20_000,
    );

    // the ack of this envelope is lost; the socket drops; Slack delivers it again (retry_attempt 1)
    slack.userMessage({ channel: 'D1', user: 'U1', text: 'lost ack', deliver: { loseAck: true } });
    await waitFor(() => count('D1', 'echo: lost ack') === 1, 'the first answer');
    slack.dropSocket();
    const again = await slack.waitFor(
      () => slack.envelopes.find((e) => e.retry_attempt === 1),
      'the redelivery',
    );
    await slack.waitFor(() => slack.acks.includes(again.envelope_id), 'the redelivery acked');

    // Slack's routine refresh: a warning, then refresh_requested
    slack.sendDisconnect('warning');
    await slack.waitFor(
      () => slack.connections() === 4 && slack.connected(),
      'reconnected after the warning',
    );
    slack.sendDisconnect('refresh_requested');
    await slack.waitFor(
      () => slack.connections() === 5 && slack.connected(),
      'reconnected after the refresh',
    );
    expect(await slackState()).toBe('connected'); // routine reconnects are not outages
    slack.userMessage({ channel: 'D1', user: 'U1', text: 'after the refresh' });
    await waitFor(() => count('D1', 'echo: after the refresh') === 1, 'the answer after the refresh');

    // nothing doubled: each message answered once, the redelivered one dropped as a duplicate
    expect(count('D1', 'echo: lost ack')).toBe(1);
    expect(count('D1', 'a slow answer that keeps streaming for a while')).toBe(1);
    const lastUser = (r: (typeof model.requests)[number]): unknown =>
      (r.body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'user').at(-1)
        ?.content;
    expect(model.requests.filter((r) => lastUser(r) === 'lost ack')).toHaveLength(1);
    expect(w.botMessages('D1')).toHaveLength(3);
  });

  it('20 messages in one second from 4 users are all answered once', async () => {
    const { slack } = w;
    const sent = new Map<string, string[]>();
    const users = ['U1', 'U2', 'U3', 'U4'];
    for (let i = 0; i < 5; i++)
      for (const [n, u] of users.entries()) {
        const text = `burst ${u} ${i}`;
        sent.set(u, [...(sent.get(u) ?? []), text]);
        slack.userMessage({ channel: `D1${n + 1}`, user: u, text });
      }
    const started = Date.now();
    await waitFor(
      () => users.every((u, n) => sent.get(u)!.every((t) => count(`D1${n + 1}`, `echo: ${t}`) >= 1)),
      'every burst message answered',
      30_000,
    );
    for (const [n, u] of users.entries()) {
      expect(w.botMessages(`D1${n + 1}`).map((m) => m.text)).toEqual(sent.get(u)!.map((t) => `echo: ${t}`));
    }
    expect(Date.now() - started).toBeLessThan(30_000);
    await waitFor(
      () => deliveries(w.root, 'slack', ['accepted', 'running', 'pending']) === 0,
      'no open deliveries',
    );
  });

  it('an envelope delivered again to a restarted daemon is dropped by its dedupe key', async () => {
    const { slack } = w;
    slack.userMessage({ channel: 'D5', user: 'U1', text: 'before the restart', deliver: { loseAck: true } });
    await waitFor(() => count('D5', 'echo: before the restart') === 1, 'the answer');
    await waitFor(() => openDeliveries(w.root, 'slack') === 0, 'the reply recorded as sent');
    await killDaemonHard(w.root); // its socket drops with it, the ack never reached Slack
    await startDaemonWithPlatform(w.root, 'slack');
    const pid = aliveDiscovery(w.root)!.pid;
    const again = await slack.waitFor(
      () =>
        slack.envelopes.find((e) => e.retry_attempt === 1 && e.payload.event?.text === 'before the restart'),
      'the redelivery to the new daemon',
    );
    await slack.waitFor(() => slack.acks.includes(again.envelope_id), 'the redelivery acked');
    slack.userMessage({ channel: 'D5', user: 'U1', text: 'after the restart' });
    await waitFor(() => count('D5', 'echo: after the restart') === 1, 'the next answer');
    expect(w.botMessages('D5').map((m) => m.text)).toEqual([
      'echo: before the restart',
      'echo: after the restart',
    ]);
    // the copy reached the restarted daemon's pipeline and was dropped there by its dedupe key
    // (only the new daemon's lines: a kill -9 may lose the last lines of the old one's log)
    const d5 = (): string[] =>
      outcomeLines(w.root, pid)
        .filter((l) => l.includes('chat=D5'))
        .map((l) => l.replace(/^.*outcome=/, ''));
    await waitFor(() => d5().length >= 2, 'two outcomes in D5');
    expect(d5()).toEqual(['dropped reason="duplicate"', 'reply']);
  });

  it('a message with a file delivered again to a restarted daemon is dropped before a second download', async () => {
    const { slack } = w;
    const file = slack.hostFile('once.txt', 'text/plain', Buffer.from('fetch me once'));
    const downloads = (): number =>
      slack.calls.filter((c) => c.method === 'GET url_private' && String(c.params.path).includes('once.txt'))
        .length;
    slack.userMessage({
      channel: 'D6',
      user: 'U1',
      text: 'keep this file',
      files: [file],
      deliver: { loseAck: true },
    });
    await waitFor(() => w.botMessages('D6').length >= 1, 'the answer');
    await waitFor(() => openDeliveries(w.root, 'slack') === 0, 'the reply recorded as sent');
    expect(downloads()).toBe(1);
    await killDaemonHard(w.root); // the ack never reached Slack: it delivers the envelope again
    await startDaemonWithPlatform(w.root, 'slack');
    const pid = aliveDiscovery(w.root)!.pid;
    const again = await slack.waitFor(
      () => slack.envelopes.find((e) => e.retry_attempt === 1 && e.payload.event?.text === 'keep this file'),
      'the redelivery to the new daemon',
    );
    await slack.waitFor(() => slack.acks.includes(again.envelope_id), 'the redelivery acked');
    await waitFor(
      () => outcomeLines(w.root, pid).some((l) => l.includes('chat=D6') && l.includes('reason="duplicate"')),
      'the copy dropped as a duplicate',
    );
    expect(downloads()).toBe(1);
    expect(w.botMessages('D6')).toHaveLength(1);
  });

  it('a token refused when reconnecting ends in `failed` with the reason, not endless retries', async () => {
    const { slack } = w;
    slack.setOpenError('invalid_auth');
    slack.dropSocket();
    const status = await waitFor(
      async () =>
        (await gatewayStatus(w.root)).platforms?.find((p) => p.platform === 'slack' && p.state === 'failed'),
      'slack to fail',
      30_000,
    );
    expect(JSON.stringify(status)).toContain('invalid_auth');
    const shown = await runHermes(w.root, ['gateway', 'status']);
    expect(shown.stdout).toMatch(/slack: failed: .*SLACK_APP_TOKEN\) was refused: invalid_auth/);
    const opens = slack.calls.filter((c) => c.method === 'apps.connections.open').length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(slack.calls.filter((c) => c.method === 'apps.connections.open').length).toBe(opens);
  });
});
