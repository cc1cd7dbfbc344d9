/**
 * The Discord adapter's connection life against the local stand-in: a gateway that stays down is
 * reported to the host after the grace period (so `gateway status` does not claim `connected`),
 * the channel history read after a new session, per-guild command registration, and chat info.
 */
import { FakeHost } from '@hermes/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../../../../tests/support/fake-discord.js';
import { DiscordAdapter } from './adapter.js';
import { DiscordSettingsSchema } from './settings.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function start(
  settings: Record<string, unknown> = {},
  resumeGraceMs?: number,
  log?: (line: string) => void,
): Promise<{ dc: FakeDiscord; host: FakeHost; adapter: DiscordAdapter }> {
  const dc = await startFakeDiscord({ heartbeatIntervalMs: 1_000 });
  cleanup.push(() => dc.close());
  const host = new FakeHost();
  const adapter = host.attach(
    new DiscordAdapter({
      token: dc.token,
      settings: DiscordSettingsSchema.parse({ api_base: dc.url, ...settings }),
      ...(resumeGraceMs ? { resumeGraceMs } : {}),
      ...(log ? { log } : {}),
    }),
  );
  cleanup.push(() => adapter.disconnect());
  return { dc, host, adapter };
}

describe('DiscordAdapter connection life', () => {
  it('a gateway that does not come back within the grace period is reported as lost', async () => {
    const { dc, host, adapter } = await start({}, 1_500);
    await adapter.connect();
    dc.gateway.refuse = true;
    dc.gateway.drop();
    const fatal = await host.waitFor(() => host.fatal[0], 'the lost connection', 8_000);
    expect(fatal.message).toMatch(/did not come back within 2 s/);
  });

  it('a short drop is no loss: the resume stops the grace timer and the host hears nothing', async () => {
    const lines: string[] = [];
    const { dc, host, adapter } = await start({}, 5_000, (l) => lines.push(l));
    await adapter.connect();
    dc.gateway.drop(4000); // unknown error: resumable
    await dc.gateway.waitFor(() => dc.gateway.resumes === 1 && dc.gateway.connected, 'the RESUME');
    await dc.gateway.waitFor(
      () => lines.some((l) => l.startsWith('gateway resumed')),
      'the resumed log line',
    );
    expect(lines).toContain('gateway connection dropped; resuming');
    expect(host.fatal).toEqual([]);
  });

  it('registers the commands per guild when asked', async () => {
    const { dc, adapter } = await start({ slash_commands: 'guilds' });
    await adapter.connect();
    const put = await dc.waitForCall((c) => c.method === 'PUT', 'the registration');
    expect(put.path).toBe(`/applications/${dc.appId}/guilds/${dc.guildId}/commands`);
  });

  it('registers nothing with slash_commands: off; a channel outside `channels` is ignored', async () => {
    const { dc, host, adapter } = await start({
      slash_commands: 'off',
      channels: ['1'],
      require_mention: false,
    });
    await adapter.connect();
    dc.userMessage({
      user: { id: '700000000000000011', name: 'Ann' },
      channelId: dc.generalId,
      content: 'x',
    });
    dc.userMessage({ user: { id: '700000000000000011', name: 'Ann' }, content: 'in a DM' });
    expect((await host.message(0)).text).toBe('in a DM');
    expect(host.messages).toHaveLength(1);
    expect(dc.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('chat info of a channel and a DM', async () => {
    const { dc, adapter } = await start();
    await adapter.connect();
    expect(await adapter.getChatInfo(dc.generalId)).toEqual({ name: 'general', type: 'group' });
    const dm = dc.dmChannel({ id: '700000000000000011', name: 'Ann' });
    expect(await adapter.getChatInfo(dm)).toEqual({ name: 'Ann', type: 'dm' });
  });

  it('disallowed intents (4014) fail the connect for good, naming the Message Content intent', async () => {
    const { dc, adapter } = await start();
    dc.gateway.identifyClose = 4014;
    const err = (await adapter.connect().catch((e: unknown) => e)) as Error & { permanent?: boolean };
    expect(err.message).toMatch(/disallowed intents \(4014\): enable the Message Content intent/);
    expect(err.permanent).toBe(true);
  });

  it('after a lost session, the messages sent meanwhile are read from the channel history', async () => {
    const ann = { id: '700000000000000011', name: 'Ann' };
    const { dc, host, adapter } = await start({}, 1_000);
    await adapter.connect();
    dc.userMessage({ user: ann, content: 'before' });
    await host.message(0);
    dc.gateway.refuse = true;
    dc.gateway.drop();
    await host.waitFor(() => host.fatal[0], 'the lost connection', 8_000);
    await adapter.disconnect(); // as the host does before it connects again
    dc.userMessage({ user: ann, content: 'sent while away' }); // no session gets it
    dc.gateway.refuse = false;
    await adapter.connect();
    expect(dc.gateway.identifies).toBe(2); // a new session: Discord replays nothing
    expect((await host.message(1)).text).toBe('sent while away');
    expect(host.messages.map((m) => m.text)).toEqual(['before', 'sent while away']);
    const history = dc.calls.find(
      (c) => c.method === 'GET' && c.path === `/channels/${dc.dmChannel(ann)}/messages`,
    );
    expect(history).toBeDefined();
  });
});
