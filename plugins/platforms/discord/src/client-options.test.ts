import { describe, expect, it } from 'vitest';
import type { ResponseLike } from 'discord.js';
import { DISCORD_INTENTS, discordClientOptions, withGatewayUrl } from './client-options.js';

describe('discord.js client options', () => {
  it('the four intents, DM partials, no pings, and the REST base', () => {
    const o = discordClientOptions({ apiBase: 'http://127.0.0.1:1/api/' });
    expect(DISCORD_INTENTS.reduce((a, b) => a | b, 0)).toBe(1 | 512 | 4096 | 32768);
    expect(o.rest?.api).toBe('http://127.0.0.1:1/api');
    expect(o.rest?.makeRequest).toBeUndefined();
    expect(o.allowedMentions).toEqual({ parse: [], repliedUser: false });
  });

  it('a gateway URL replaces the one GET /gateway/bot names, and nothing else', async () => {
    const inner = async (url: string) =>
      new Response(JSON.stringify({ url: 'wss://gateway.discord.gg', shards: 1, seen: url }), {
        status: 200,
      }) as unknown as ResponseLike;
    const make = withGatewayUrl('ws://127.0.0.1:9/gw', inner);
    const got = (await (await make('http://x/api/v10/gateway/bot', { method: 'GET' })).json()) as Record<
      string,
      unknown
    >;
    expect(got).toEqual({ url: 'ws://127.0.0.1:9/gw', shards: 1, seen: 'http://x/api/v10/gateway/bot' });
    const other = (await (await make('http://x/api/v10/users/@me', { method: 'GET' })).json()) as Record<
      string,
      unknown
    >;
    expect(other.url).toBe('wss://gateway.discord.gg');
  });
});
