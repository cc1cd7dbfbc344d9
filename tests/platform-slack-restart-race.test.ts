/**
 * Messages Slack holds for a daemon that is down, end to end: the real daemon with the Slack
 * stand-in (tests/support/fake-slack.ts, which delivers every unacknowledged envelope again right
 * after `hello`) and the scripted model (echo). Messages sent while the daemon was killed arrive the
 * moment it connects again — while it recovers the messages the killed daemon left open — and each
 * is answered exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './support/gateway-process.js';
import { killDaemonHard, openDeliveries, startDaemonWithPlatform } from './support/platform-daemon.js';
import { startSlackWorld, type SlackWorld } from './support/slack-daemon.js';

let w: SlackWorld;

beforeAll(async () => {
  w = await startSlackWorld();
}, 60_000);

afterAll(async () => {
  await w?.stop();
});

const count = (channel: string, text: string): number =>
  w.botMessages(channel).filter((m) => m.text === text).length;

describe('Slack: messages held while the daemon was down', () => {
  it('each message sent during a kill -9 is answered once after the start', async () => {
    const { slack } = w;
    slack.userMessage({ channel: 'D7', user: 'U1', text: 'warm up' });
    await waitFor(() => count('D7', 'echo: warm up') === 1, 'the first answer');
    await killDaemonHard(w.root);
    for (let i = 0; i < 5; i++) slack.userMessage({ channel: 'D7', user: 'U1', text: `while down ${i}` });
    await startDaemonWithPlatform(w.root, 'slack');
    await waitFor(() => count('D7', 'echo: while down 4') >= 1, 'the answers');
    await waitFor(() => openDeliveries(w.root, 'slack') === 0, 'the ledger settled');
    // a moment for a second copy to show, had one been made
    await new Promise((r) => setTimeout(r, 1_500));
    for (let i = 0; i < 5; i++) expect(count('D7', `echo: while down ${i}`), `while down ${i}`).toBe(1);
  }, 90_000);
});
