import { testPlatformContext } from '@hermes/core/testing';
import { describe, expect, it } from 'vitest';
import { platform } from './index.js';

const token = { DISCORD_BOT_TOKEN: 'MTIzNDU2Nzg5MDEy.GtEsT1.abcdefghijklmnopqrst' };
const parse = (config: Record<string, unknown>, secrets: Record<string, string> = token) =>
  platform.parse(testPlatformContext({ config, secrets }));

describe('platforms.discord settings', () => {
  it('defaults', () => {
    const r = parse({ guilds: [123] });
    expect(r.ok && r.setup.settings).toEqual({
      api_base: 'https://discord.com/api',
      require_mention: true,
      guilds: ['123'],
      channels: [],
      slash_commands: 'global',
      max_attachment_bytes: 25 * 1024 * 1024,
    });
  });

  it('errors name the key', () => {
    expect(parse({}, {})).toMatchObject({
      ok: false,
      error: 'DISCORD_BOT_TOKEN is not set in the profile .env',
    });
    expect(parse({}, { DISCORD_BOT_TOKEN: 'nope' })).toMatchObject({
      ok: false,
      error: 'DISCORD_BOT_TOKEN: does not look like a bot token (three dot-separated parts)',
    });
    expect(parse({ require_mention: 'yes' })).toMatchObject({
      ok: false,
      error: 'platforms.discord.require_mention: expected true or false',
    });
    expect(parse({ guilds: ['abc'] })).toMatchObject({
      ok: false,
      error: 'platforms.discord.guilds[0]: expected a Discord id (digits)',
    });
    // an 18-digit id written without quotes is a number past 2^53 once YAML read it
    expect(parse({ channels: [2 ** 60] })).toMatchObject({
      ok: false,
      error:
        'platforms.discord.channels[0]: write Discord ids in quotes (a number this long loses its last digits)',
    });
    expect(parse({ slash_commands: 'sometimes' })).toMatchObject({
      ok: false,
      error: 'platforms.discord.slash_commands: must be one of "global", "guilds", "off"',
    });
    expect(parse({ gateway_url: 'http://x' })).toMatchObject({
      ok: false,
      error: 'platforms.discord.gateway_url: expected a ws(s) URL',
    });
    expect(parse({ api_base: 'discord.com' })).toMatchObject({
      ok: false,
      error: 'platforms.discord.api_base: expected an http(s) URL',
    });
  });
});
