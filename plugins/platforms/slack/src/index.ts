/**
 * `@hermes/platform-slack`: the Slack platform (Bolt in Socket Mode: no public URL needed). Its
 * main export is the definition `platform`.
 *
 * ```yaml
 * platforms:
 *   slack:
 *     enabled: true
 *     allowed_users: [U012ABCDEF]
 *     require_mention: true        # in channels; DMs are always answered
 *     reply_in_thread: true        # channel replies go into the message's thread
 *     api_base: https://slack.com/api/
 * ```
 * Secrets (`.env`): `SLACK_BOT_TOKEN` (xoxb-…), `SLACK_APP_TOKEN` (xapp-…, `connections:write`),
 * `SLACK_ALLOWED_USERS`, `SLACK_HOME_CHANNEL` (cron delivery). Setup: docs/platforms.md.
 */
import { definePlatform } from '@hermes/core';
import { modelAcceptsImages } from '@hermes/core/model';
import { webApi } from '@slack/bolt';
import { z } from 'zod';
import { SlackAdapter, SLACK_MAX_LENGTH } from './adapter.js';
import { toMrkdwn } from './mrkdwn.js';

export { SlackAdapter, SLACK_MAX_LENGTH, type SlackSettings } from './adapter.js';
export { fromSlackText, toMrkdwn } from './mrkdwn.js';

/** `platforms.slack` (the keys every platform shares are in platform-config.ts). */
export const SlackSettingsSchema = z.object({
  /** Web API base URL (a stand-in in tests, a proxy); a trailing `/` is added. */
  api_base: z
    .string()
    .regex(/^https?:\/\/\S+$/, { error: 'expected an http(s) URL' })
    .default('https://slack.com/api/')
    .transform((u) => (u.endsWith('/') ? u : `${u}/`)),
  /** Channel messages must mention the bot (DMs are always answered; so are follow-ups in its threads). */
  require_mention: z.boolean().default(true),
  /** A top-level channel message is answered in a thread under it (the thread is the session). */
  reply_in_thread: z.boolean().default(true),
  /** The slash command routed to the agent (create it in the app's settings). */
  slash_command: z
    .string()
    .regex(/^\/[a-z0-9_-]{1,31}$/, { error: 'expected a command like /hermes' })
    .default('/hermes'),
  /** Largest file downloaded from a message, bytes (larger ones become a note in the text). */
  max_file_bytes: z.number().int().positive().default(20_000_000),
  /** Emoji name put on a message while the agent works on it ('' for none). */
  working_reaction: z
    .string()
    .regex(/^[a-z0-9_+'-]*$/, { error: 'expected an emoji name without colons' })
    .default('hourglass_flowing_sand'),
  /** Socket Mode: how long to wait for a pong to the client's ping, ms. */
  ping_timeout_ms: z.number().int().min(500).max(60_000).default(5_000),
});

/** The Slack platform: settings, tokens and adapter. */
export const platform = definePlatform({
  name: 'slack',
  label: 'Slack',
  settings: SlackSettingsSchema,
  secrets: z.object({
    SLACK_BOT_TOKEN: z.string().regex(/^xoxb-[\w-]+$/, { error: 'does not look like a bot token (xoxb-…)' }),
    SLACK_APP_TOKEN: z
      .string()
      .regex(/^xapp-[\w-]+$/, { error: 'does not look like an app-level token (xapp-…)' }),
  }),
  createAdapter: ({ settings, secrets, ctx }) =>
    new SlackAdapter(
      {
        apiBase: settings.api_base,
        botToken: secrets.SLACK_BOT_TOKEN,
        appToken: secrets.SLACK_APP_TOKEN,
        requireMention: settings.require_mention,
        replyInThread: settings.reply_in_thread,
        slashCommand: settings.slash_command,
        maxFileBytes: settings.max_file_bytes,
        imagesToModel: modelAcceptsImages(ctx.hermesConfig.model.default, ctx.hermesConfig),
        imageMaxBytes: ctx.hermesConfig.images.max_bytes,
        workingReaction: settings.working_reaction,
        pingTimeoutMs: settings.ping_timeout_ms,
      },
      { log: ctx.log },
    ),
  allowedUsersEnv: 'SLACK_ALLOWED_USERS',
  // outbound text is escaped: the model cannot write a mention, so ids may be hashed for it
  piiSafe: true,
  maxMessageLength: SLACK_MAX_LENGTH,
  // more than three messages' worth goes out as `reply.md` with a one-line summary
  longReplyAsFileAbove: 3 * SLACK_MAX_LENGTH,
  cronDeliverEnvVar: 'SLACK_HOME_CHANNEL',
  platformHint:
    'You are chatting on Slack: bold, links, lists and code blocks in Markdown are shown; tables and images in Markdown are not. Keep replies concise.',
  standaloneSender: async ({ settings, secrets }, chatId, text, opts) => {
    try {
      const web = new webApi.WebClient(secrets.SLACK_BOT_TOKEN, {
        slackApiUrl: settings.api_base,
        retryConfig: { retries: 2 },
      });
      const r = await web.chat.postMessage({
        channel: chatId,
        text: toMrkdwn(text),
        ...(opts?.threadId ? { thread_ts: opts.threadId } : {}),
      });
      return { ok: true, ...(r.ts ? { messageId: r.ts } : {}) };
    } catch (err) {
      const code = (err as { data?: { error?: string } }).data?.error;
      return { ok: false, error: code ? `Slack: ${code}` : (err as Error).message };
    }
  },
});
