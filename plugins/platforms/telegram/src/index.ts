/**
 * `@hermes/platform-telegram`: the Telegram Bot API platform. Its main export is the
 * definition `platform`.
 *
 * ```yaml
 * platforms:
 *   telegram:
 *     enabled: true
 *     allowed_users: [123456789]
 *     api_base: https://api.telegram.org   # default; a self-hosted Bot API server works too
 *     poll_timeout: 25                      # long-poll seconds
 *     max_file_bytes: 20971520              # largest received file downloaded (shared key)
 *     long_reply_as_file_above: 8192        # longer replies go as a document (0: split)
 * ```
 * Secrets (`.env`): `TELEGRAM_BOT_TOKEN` (required), `TELEGRAM_ALLOWED_USERS`,
 * `TELEGRAM_HOME_CHANNEL` (cron delivery).
 */
import { definePlatform } from '@hermes/core';
import { z } from 'zod';
import { TelegramAdapter } from './adapter.js';
import { BotApi } from './bot-api.js';

export { TelegramAdapter, TELEGRAM_MAX_LENGTH, type TelegramSettings } from './adapter.js';
export { collectMedia, pickPhotoSize, type CollectedMedia, type MediaLimits } from './media.js';
export * from './bot-api.js';

/** `platforms.telegram` (the keys every platform shares are in platform-config.ts). */
export const TelegramSettingsSchema = z.object({
  /** Bot API server; a self-hosted one works too. */
  api_base: z
    .string()
    .regex(/^https?:\/\/\S+$/, { error: 'expected an http(s) URL' })
    .default('https://api.telegram.org'),
  /** Long-poll timeout, seconds. */
  poll_timeout: z.number().int().min(0).max(50).default(25),
});

/** The Telegram platform: settings, bot token and adapter. */
export const platform = definePlatform({
  name: 'telegram',
  label: 'Telegram',
  settings: TelegramSettingsSchema,
  secrets: z.object({
    TELEGRAM_BOT_TOKEN: z
      .string()
      .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, { error: 'does not look like a bot token (<id>:<secret>)' }),
  }),
  createAdapter: ({ settings, secrets, ctx }) =>
    new TelegramAdapter(
      {
        apiBase: settings.api_base,
        token: secrets.TELEGRAM_BOT_TOKEN,
        pollTimeoutS: settings.poll_timeout,
        maxFileBytes: ctx.config.max_file_bytes,
        maxImageBytes: ctx.hermesConfig.images.max_bytes,
      },
      { log: ctx.log },
    ),
  allowedUsersEnv: 'TELEGRAM_ALLOWED_USERS',
  piiSafe: true,
  maxMessageLength: 4096,
  // beyond two messages a reply is easier to read as a document
  longReplyAsFileAbove: 8192,
  cronDeliverEnvVar: 'TELEGRAM_HOME_CHANNEL',
  platformHint:
    'You are chatting on Telegram: replies are shown as plain text (no Markdown rendering); keep them concise.',
  standaloneSender: async ({ settings, secrets }, chatId, text, opts) => {
    try {
      const api = new BotApi({ baseUrl: settings.api_base, token: secrets.TELEGRAM_BOT_TOKEN });
      const m = await api.call<{ message_id: number }>('sendMessage', {
        chat_id: chatId,
        text,
        ...(opts?.threadId ? { message_thread_id: Number(opts.threadId) } : {}),
      });
      return { ok: true, messageId: String(m.message_id) };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  },
});
