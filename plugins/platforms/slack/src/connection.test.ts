/** The Socket Mode connection against the Slack stand-in (tests/support/fake-slack.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../../../tests/support/fake-slack.js';
import { SlackConnection } from './connection.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(
  tokens: { bot?: string; app?: string } = {},
): Promise<{ slack: FakeSlack; conn: SlackConnection }> {
  const slack = await startFakeSlack();
  cleanup.push(() => slack.close());
  const conn = new SlackConnection({
    apiBase: slack.url,
    botToken: tokens.bot ?? slack.botToken,
    appToken: tokens.app ?? slack.appToken,
    pingTimeoutMs: 5_000,
    log: () => undefined,
  });
  cleanup.push(() => conn.close());
  return { slack, conn };
}

describe('SlackConnection', () => {
  it('opens with auth.test and apps.connections.open, and reopens a dropped socket at once', async () => {
    const { slack, conn } = await setup();
    const lost: Error[] = [];
    const me = await conn.open(
      () => undefined,
      (e) => lost.push(e),
    );
    expect(me).toEqual({ userId: 'UBOT', botId: 'BBOT', teamId: 'T0TEST', team: 'Hermes Test' });
    expect(slack.calls.map((c) => c.method)).toEqual(['auth.test', 'apps.connections.open']);
    slack.dropSocket();
    await slack.waitFor(() => slack.connections() === 2 && slack.connected(), 'the socket again', 3_000);
    expect(lost).toEqual([]);
  });

  it('a bot token in the app token slot is refused for good', async () => {
    const { slack, conn } = await setup();
    const wrong = new SlackConnection({
      apiBase: slack.url,
      botToken: slack.botToken,
      appToken: slack.botToken,
      pingTimeoutMs: 5_000,
      log: () => undefined,
    });
    cleanup.push(() => wrong.close());
    await expect(
      wrong.open(
        () => undefined,
        () => undefined,
      ),
    ).rejects.toMatchObject({
      message: 'the app token (SLACK_APP_TOKEN) was refused: not_allowed_token_type',
      permanent: true,
    });
    void conn;
  });

  it('a socket that cannot be reopened is reported once; close ends it quietly', async () => {
    const { slack, conn } = await setup();
    const lost: Error[] = [];
    await conn.open(
      () => undefined,
      (e) => lost.push(e),
    );
    slack.setOpenError('team_disabled');
    slack.dropSocket();
    await slack.waitFor(() => lost.length > 0 && lost, 'the loss', 3_000);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ permanent: true, message: 'reconnecting failed: team_disabled' });
    await conn.close();
    expect(slack.connected()).toBe(false);
  });
});
