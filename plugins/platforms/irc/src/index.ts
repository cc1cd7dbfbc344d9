/**
 * `@hermes/platform-irc`: the IRC platform. Its main export is the definition `platform`, loaded
 * by the daemon the first time a profile enables `platforms.irc` (tui-gateway/src/platforms/bundled.ts).
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
 * pairing over allow-lists there, or keep the agent in channels you control — or set
 * `identity: account` on a network with services and IRCv3 `account-tag` (Libera, OFTC …): the
 * user ids are then the services accounts the server vouches for.
 */
import { definePlatform } from '@hermes/core';
import { z } from 'zod';
import { IrcAdapter, type IrcSettings } from './adapter.js';
import { IrcClient } from './client.js';
import { isChannel } from './protocol.js';

export { IrcAdapter, stripFormatting, type IrcSettings } from './adapter.js';
export { IrcClient, type IrcClientOptions, type IrcPrivmsg } from './client.js';
export * from './protocol.js';

const NICK_RE = /^[A-Za-z[\]\\`_^{|}][A-Za-z0-9[\]\\`_^{|}-]{0,29}$/;

/** A channel name the client can JOIN: `#`/`&`… prefix, no space, comma or BEL. */
const Channel = z.string().refine((ch) => isChannel(ch) && !/[\s,]/.test(ch) && !ch.includes('\u0007'), {
  error: 'expected a channel name like "#hermes"',
});

/** `platforms.irc` (the keys every platform shares are in platform-config.ts). */
export const IrcSettingsSchema = z
  .object({
    /** Host name of the IRC server. */
    server: z.string().trim().min(1, { error: 'is not set' }),
    /** Default 6697 with `tls`, else 6667. */
    port: z.number().int().min(1).max(65535).optional(),
    tls: z.boolean().default(false),
    /** Verify the server certificate. */
    tls_verify: z.boolean().default(true),
    nick: z
      .string()
      .regex(NICK_RE, { error: (iss) => `"${String(iss.input)}" is not a valid nick` })
      .default('hermes'),
    realname: z.string().optional(),
    channels: z.array(Channel).default([]),
    /** In channels, answer only "<nick>: …". */
    require_mention: z.boolean().default(true),
    /**
     * Who a sender is: `nick` (anyone who holds the nick — on a network whose services do not guard
     * it, anyone who takes it while it is free), or `account`: the services account the server
     * vouches for (IRCv3 `account-tag`, required of the server); a sender logged in to no account
     * is nobody and is ignored.
     */
    identity: z.enum(['nick', 'account']).default('nick'),
    /** Lines sent at once before throttling. */
    flood_burst: z.number().int().min(1).max(1000).default(5),
    /** Gap between throttled lines, ms. */
    flood_interval_ms: z.number().int().min(0).max(60_000).default(400),
  })
  .transform((c) => ({ ...c, port: c.port ?? (c.tls ? 6697 : 6667) }));

/** The IRC platform: settings, secrets and adapter. */
export const platform = definePlatform({
  name: 'irc',
  label: 'IRC',
  settings: IrcSettingsSchema,
  secrets: z.object({
    /** Server password (PASS). */
    IRC_PASSWORD: z.string().optional(),
    /** Sent to NickServ after registration. */
    IRC_NICKSERV_PASSWORD: z.string().optional(),
  }),
  createAdapter: ({ settings, secrets, ctx }) =>
    new IrcAdapter(adapterSettings(settings, secrets), { log: ctx.log }),
  allowedUsersEnv: 'IRC_ALLOWED_USERS',
  piiSafe: false,
  maxMessageLength: 450,
  cronDeliverEnvVar: 'IRC_HOME_CHANNEL',
  platformHint:
    'You are chatting on IRC: plain text only (no Markdown), short replies; every line of your reply is sent as a separate IRC message.',
  standaloneSender: async ({ settings, secrets, ctx }, chatId, text) => {
    const s = adapterSettings(settings, secrets);
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
});

/** The adapter's settings from the parsed section and secrets. */
function adapterSettings(
  c: z.output<typeof IrcSettingsSchema>,
  secrets: { IRC_PASSWORD?: string | undefined; IRC_NICKSERV_PASSWORD?: string | undefined },
): IrcSettings {
  return {
    host: c.server,
    port: c.port,
    tls: c.tls,
    tlsVerify: c.tls_verify,
    nick: c.nick,
    ...(c.realname !== undefined ? { realname: c.realname } : {}),
    channels: c.channels,
    requireMention: c.require_mention,
    identity: c.identity,
    ...(c.identity === 'account' ? { capabilities: ['account-tag'] } : {}),
    burst: c.flood_burst,
    sendIntervalMs: c.flood_interval_ms,
    ...(secrets.IRC_PASSWORD ? { password: secrets.IRC_PASSWORD } : {}),
    ...(secrets.IRC_NICKSERV_PASSWORD ? { nickservPassword: secrets.IRC_NICKSERV_PASSWORD } : {}),
  };
}
