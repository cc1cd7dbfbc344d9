/**
 * `@hermes/platform-irc`: the IRC platform. Registered lazily by the daemon
 * (tui-gateway/src/platforms/bundled.ts); its main export is the registry entry `platform`.
 *
 * ```yaml
 * platforms:
 *   irc:
 *     enabled: true
 *     server: irc.libera.chat
 *     port: 6697            # default 6697 with tls, else 6667
 *     tls: true
 *     nick: hermes-bot
 *     channels: ["#my-channel"]
 *     require_mention: true # in channels, answer only "hermes-bot: …"
 *     flood_burst: 5        # lines sent at once, then one every flood_interval_ms (400)
 * ```
 * Secrets (`.env`): `IRC_PASSWORD` (server password), `IRC_NICKSERV_PASSWORD`,
 * `IRC_ALLOWED_USERS` (nicks, comma-separated), `IRC_HOME_CHANNEL` (cron delivery).
 * Nicks are the user ids: on networks without services anyone can take a free nick, so prefer
 * pairing over allow-lists there, or keep the agent in channels you control.
 */
import { lookupSecret, type PlatformContext, type PlatformEntry } from '@hermes/core';
import { IrcAdapter, type IrcSettings } from './adapter.js';
import { IrcClient } from './client.js';
import { isChannel } from './protocol.js';

export { IrcAdapter, stripFormatting, type IrcSettings } from './adapter.js';
export { IrcClient, type IrcClientOptions, type IrcPrivmsg } from './client.js';
export * from './protocol.js';

const NICK_RE = /^[A-Za-z[\]\\`_^{|}][A-Za-z0-9[\]\\`_^{|}-]{0,29}$/;

/** Reads and checks `platforms.irc`. @returns the settings, or a one-line problem. */
export function ircSettings(ctx: PlatformContext): IrcSettings | string {
  const c = ctx.config as Record<string, unknown>;
  const server = c.server;
  if (typeof server !== 'string' || !server.trim()) return 'platforms.irc.server is not set';
  const tls = c.tls === true;
  const port = c.port ?? (tls ? 6697 : 6667);
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    return 'platforms.irc.port must be a port number';
  const nick = c.nick ?? 'hermes';
  if (typeof nick !== 'string' || !NICK_RE.test(nick))
    return `platforms.irc.nick "${String(nick)}" is not a valid nick`;
  const channels = c.channels ?? [];
  if (
    !Array.isArray(channels) ||
    !channels.every(
      (ch) => typeof ch === 'string' && isChannel(ch) && !/[\s,]/.test(ch) && !ch.includes('\u0007'),
    )
  )
    return 'platforms.irc.channels must be a list of channel names like "#hermes"';
  if (c.require_mention !== undefined && typeof c.require_mention !== 'boolean')
    return 'platforms.irc.require_mention must be true or false';
  const burst = c.flood_burst ?? 5;
  if (typeof burst !== 'number' || !Number.isInteger(burst) || burst < 1 || burst > 1000)
    return 'platforms.irc.flood_burst must be a whole number of lines (1–1000)';
  const interval = c.flood_interval_ms ?? 400;
  if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 0 || interval > 60_000)
    return 'platforms.irc.flood_interval_ms must be a number of milliseconds (0–60000)';
  const password = lookupSecret(ctx.secrets, 'IRC_PASSWORD');
  const nickserv = lookupSecret(ctx.secrets, 'IRC_NICKSERV_PASSWORD');
  return {
    host: server.trim(),
    port,
    tls,
    tlsVerify: c.tls_verify !== false,
    nick,
    ...(typeof c.realname === 'string' ? { realname: c.realname } : {}),
    channels: channels as string[],
    requireMention: c.require_mention !== false,
    burst,
    sendIntervalMs: interval,
    ...(password ? { password } : {}),
    ...(nickserv ? { nickservPassword: nickserv } : {}),
  };
}

/** The registry entry of IRC. */
export const platform: PlatformEntry = {
  name: 'irc',
  label: 'IRC',
  validateConfig: (ctx) => {
    const s = ircSettings(ctx);
    return typeof s === 'string' ? s : true;
  },
  createAdapter: (ctx) => {
    const s = ircSettings(ctx);
    if (typeof s === 'string') throw new Error(s);
    return new IrcAdapter(s, {
      log: ctx.log,
      ...(ctx.config.max_message_length ? { maxMessageLength: ctx.config.max_message_length } : {}),
    });
  },
  allowedUsersEnv: 'IRC_ALLOWED_USERS',
  piiSafe: false,
  maxMessageLength: 450,
  cronDeliverEnvVar: 'IRC_HOME_CHANNEL',
  requiredSecrets: ['IRC_PASSWORD', 'IRC_NICKSERV_PASSWORD'],
  platformHint:
    'You are chatting on IRC: plain text only (no Markdown), short replies; every line of your reply is sent as a separate IRC message.',
  standaloneSender: async (ctx, chatId, text) => {
    const s = ircSettings(ctx);
    if (typeof s === 'string') return { ok: false, error: s };
    const client = new IrcClient({ ...s, channels: isChannel(chatId) ? [chatId] : [], log: ctx.log });
    try {
      await client.connect();
      client.say(chatId, text);
      await client.quit('delivered');
      return { ok: true };
    } catch (err) {
      client.destroy();
      return { ok: false, error: (err as Error).message };
    }
  },
};
