/**
 * `@hermes/platform-discord`: the Discord platform (discord.js: gateway + REST). Its main export
 * is the definition `platform`.
 *
 * ```yaml
 * platforms:
 *   discord:
 *     enabled: true
 *     allowed_users: ["123456789012345678"]
 *     require_mention: true          # in guild channels and threads (a reply to the bot counts)
 *     guilds: []                     # guild ids to answer in (empty: all)
 *     channels: []                   # channel ids to answer in (empty: all)
 *     slash_commands: global         # global | guilds | off
 * ```
 * Secrets (`.env`): `DISCORD_BOT_TOKEN` (required), `DISCORD_ALLOWED_USERS`,
 * `DISCORD_HOME_CHANNEL` (cron delivery).
 */
import { definePlatform } from '@hermes/core';
import { modelAcceptsImages } from '@hermes/core/model';
import { REST, Routes } from 'discord.js';
import { z } from 'zod';
import { DiscordAdapter, nonceOf } from './adapter.js';
import { discordClientOptions } from './client-options.js';
import { DiscordSettingsSchema } from './settings.js';

export { DiscordAdapter, DISCORD_MAX_LENGTH, nonceOf, type DiscordAdapterOptions } from './adapter.js';
export { DiscordSettingsSchema, type DiscordSettings } from './settings.js';
export { applicationCommands, commandText } from './commands.js';

/** A bot token: three dot-separated base64url parts. */
const TOKEN_RE = /^[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{10,}$/;

/** The Discord platform: settings, bot token and adapter. */
export const platform = definePlatform({
  name: 'discord',
  label: 'Discord',
  settings: DiscordSettingsSchema,
  secrets: z.object({
    DISCORD_BOT_TOKEN: z
      .string()
      .regex(TOKEN_RE, { error: 'does not look like a bot token (three dot-separated parts)' }),
  }),
  createAdapter: ({ settings, secrets, ctx }) =>
    new DiscordAdapter({
      token: secrets.DISCORD_BOT_TOKEN,
      settings,
      // the profile's default model decides (a session switched to another model is told by the backend)
      acceptsImages: () => modelAcceptsImages(ctx.hermesConfig.model.default, ctx.hermesConfig),
      log: ctx.log,
      readPositionFile: ctx.home.path('platforms', 'discord.json'),
    }),
  allowedUsersEnv: 'DISCORD_ALLOWED_USERS',
  // Discord mentions carry raw user ids (`<@id>`): ids are not hashed for the model
  piiSafe: false,
  maxMessageLength: 2000,
  // more than three messages' worth goes out as `reply.md` with a one-line summary
  longReplyAsFileAbove: 6000,
  cronDeliverEnvVar: 'DISCORD_HOME_CHANNEL',
  platformHint:
    'You are chatting on Discord: Markdown is rendered (bold, italics, code blocks, lists); messages over 2,000 characters are split and replies over 6,000 arrive as a file, so keep replies concise.',
  standaloneSender: async ({ settings, secrets }, chatId, text, opts) => {
    try {
      const options = discordClientOptions({
        apiBase: settings.api_base,
        ...(settings.gateway_url ? { gatewayUrl: settings.gateway_url } : {}),
      });
      const rest = new REST(options.rest).setToken(secrets.DISCORD_BOT_TOKEN);
      const m = (await rest.post(Routes.channelMessages(opts?.threadId ?? chatId), {
        body: {
          content: text,
          allowed_mentions: { parse: [] },
          ...(opts?.deliveryId ? { nonce: nonceOf(opts.deliveryId), enforce_nonce: true } : {}),
        },
      })) as { id: string };
      return { ok: true, messageId: m.id };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  },
});
