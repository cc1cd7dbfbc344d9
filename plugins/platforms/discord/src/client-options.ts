/**
 * The discord.js client options of the adapter: the gateway intents it needs, DM channels as
 * partials (a DM channel is not cached before its first message), and the REST base URL. A
 * configured gateway URL is put into the answer of `GET /gateway/bot` through the REST layer's
 * documented `makeRequest` hook — the one place discord.js takes the gateway URL from.
 */
import {
  DefaultRestOptions,
  GatewayIntentBits,
  Partials,
  type ClientOptions,
  type RESTOptions,
  type ResponseLike,
} from 'discord.js';

/** The REST layer's request function (`rest.makeRequest`). */
export type MakeRequest = RESTOptions['makeRequest'];

/**
 * The intents: guilds (channel and thread cache), guild and direct messages, and their content.
 * `MessageContent` is privileged: it must be enabled for the bot in the developer portal, or
 * Discord closes the gateway with 4014 (disallowed intents).
 */
export const DISCORD_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.DirectMessages,
  GatewayIntentBits.MessageContent,
] as const;

/** Where the client connects. */
export interface ClientEndpoints {
  /** REST base without the version, e.g. `https://discord.com/api`. */
  apiBase: string;
  /** Gateway URL replacing the one `GET /gateway/bot` returns. */
  gatewayUrl?: string;
}

/**
 * Wraps a REST request function so a `GET …/gateway/bot` answer names `gatewayUrl`.
 * @param inner the request function to wrap (default: discord.js's own).
 */
export function withGatewayUrl(
  gatewayUrl: string,
  inner: MakeRequest = (url, init) => DefaultRestOptions.makeRequest(url, init),
): MakeRequest {
  return async (url, init) => {
    const res = await inner(url, init);
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' || !/\/gateway\/bot(?:\?|$)/.test(url) || !res.ok) return res;
    const data = (await res.json()) as Record<string, unknown>;
    const body = JSON.stringify({ ...data, url: gatewayUrl });
    return new Response(body, {
      status: res.status,
      headers: { 'content-type': 'application/json' },
    }) as unknown as ResponseLike;
  };
}

/** The options of the adapter's discord.js `Client`. */
export function discordClientOptions(endpoints: ClientEndpoints): ClientOptions {
  return {
    intents: [...DISCORD_INTENTS],
    partials: [Partials.Channel],
    // a model's reply never pings anyone (`@everyone`, roles, users) unless a send says otherwise
    allowedMentions: { parse: [], repliedUser: false },
    rest: {
      api: endpoints.apiBase.replace(/\/+$/, ''),
      ...(endpoints.gatewayUrl ? { makeRequest: withGatewayUrl(endpoints.gatewayUrl) } : {}),
    },
  };
}
