/**
 * `@hermes/platform-telegram`: the Telegram Bot API platform. Its main export is the
 * registry entry `platform`.
 *
 * ```yaml
 * platforms:
 *   telegram:
 *     enabled: true
 *     allowed_users: [123456789]
 *     api_base: https://api.telegram.org   # default; a self-hosted Bot API server works too
 *     poll_timeout: 25                      # long-poll seconds
 * ```
 * Secrets (`.env`): `TELEGRAM_BOT_TOKEN` (required), `TELEGRAM_ALLOWED_USERS`,
 * `TELEGRAM_HOME_CHANNEL` (cron delivery).
 */
import { lookupSecret, type PlatformContext, type PlatformEntry } from '@hermes/core';
import { TelegramAdapter, type TelegramSettings } from './adapter.js';
import { BotApi } from './bot-api.js';

export { TelegramAdapter, TELEGRAM_MAX_LENGTH, type TelegramSettings } from './adapter.js';
export * from './bot-api.js';

/** Reads `platforms.telegram` and the token. @returns the settings, or a one-line problem. */
export function telegramSettings(ctx: PlatformContext): TelegramSettings | string {
  const c = ctx.config as Record<string, unknown>;
  const token = lookupSecret(ctx.secrets, 'TELEGRAM_BOT_TOKEN');
  if (!token) return 'TELEGRAM_BOT_TOKEN is not set in the profile .env';
  if (!/^\d+:[A-Za-z0-9_-]{20,}$/.test(token))
    return 'TELEGRAM_BOT_TOKEN does not look like a bot token (<id>:<secret>)';
  const apiBase = c.api_base ?? 'https://api.telegram.org';
  if (typeof apiBase !== 'string' || !/^https?:\/\/\S+$/.test(apiBase))
    return 'platforms.telegram.api_base must be an http(s) URL';
  const poll = c.poll_timeout ?? 25;
  if (typeof poll !== 'number' || !Number.isInteger(poll) || poll < 0 || poll > 50)
    return 'platforms.telegram.poll_timeout must be 0–50 seconds';
  return { apiBase, token, pollTimeoutS: poll };
}

/** The registry entry of Telegram. */
export const platform: PlatformEntry = {
  name: 'telegram',
  label: 'Telegram',
  checkRequirements: (ctx) => {
    const s = telegramSettings(ctx);
    return typeof s === 'string' ? s : true;
  },
  createAdapter: (ctx) => {
    const s = telegramSettings(ctx);
    if (typeof s === 'string') throw new Error(s);
    return new TelegramAdapter(s, {
      log: ctx.log,
      ...(ctx.config.max_message_length ? { maxMessageLength: ctx.config.max_message_length } : {}),
    });
  },
  allowedUsersEnv: 'TELEGRAM_ALLOWED_USERS',
  piiSafe: true,
  maxMessageLength: 4096,
  cronDeliverEnvVar: 'TELEGRAM_HOME_CHANNEL',
  requiredSecrets: ['TELEGRAM_BOT_TOKEN'],
  platformHint:
    'You are chatting on Telegram: replies are shown as plain text (no Markdown rendering); keep them concise.',
  standaloneSender: async (ctx, chatId, text, opts) => {
    const s = telegramSettings(ctx);
    if (typeof s === 'string') return { ok: false, error: s };
    try {
      const m = await new BotApi({ baseUrl: s.apiBase, token: s.token }).call<{ message_id: number }>(
        'sendMessage',
        {
          chat_id: chatId,
          text,
          ...(opts?.threadId ? { message_thread_id: Number(opts.threadId) } : {}),
        },
      );
      return { ok: true, messageId: String(m.message_id) };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  },
};
