import { testPlatformContext } from '@hermes/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../../../../tests/support/fake-discord.js';
import { platform } from './index.js';

let dc: FakeDiscord;
beforeAll(async () => {
  dc = await startFakeDiscord();
});
afterAll(async () => {
  await dc.close();
});

describe('the discord definition', () => {
  it('registry facts: 2,000 characters, the allowed-users and home-channel variables', () => {
    expect(platform).toMatchObject({
      name: 'discord',
      label: 'Discord',
      maxMessageLength: 2000,
      allowedUsersEnv: 'DISCORD_ALLOWED_USERS',
      cronDeliverEnvVar: 'DISCORD_HOME_CHANNEL',
      requiredSecrets: ['DISCORD_BOT_TOKEN'],
      piiSafe: false,
    });
  });

  it('the standalone sender (cron without the daemon) posts over REST, idempotently', async () => {
    const ctx = testPlatformContext({
      config: { api_base: dc.url },
      secrets: { DISCORD_BOT_TOKEN: dc.token },
    });
    const chat = dc.dmChannel({ id: '700000000000000011', name: 'Ann' });
    const a = await platform.standaloneSender!(ctx, chat, 'the cron result', { deliveryId: 'cron-1#0' });
    const b = await platform.standaloneSender!(ctx, chat, 'the cron result', { deliveryId: 'cron-1#0' });
    expect(a).toMatchObject({ ok: true });
    expect(b.messageId).toBe(a.messageId);
    expect(dc.messages.get(a.messageId!)!.content).toBe('the cron result');
    const bad = testPlatformContext({
      config: { api_base: dc.url },
      secrets: { DISCORD_BOT_TOKEN: 'AAAAAAAAAAAA.BBBBBB.CCCCCCCCCCCC' },
    });
    expect(await platform.standaloneSender!(bad, chat, 'x')).toMatchObject({ ok: false });
  });
});
