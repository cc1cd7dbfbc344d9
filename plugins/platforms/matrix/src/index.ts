/**
 * `@hermes/platform-matrix`: the Matrix platform (matrix-js-sdk, client-server API). Its main
 * export is the definition `platform`.
 *
 * ```yaml
 * platforms:
 *   matrix:
 *     enabled: true
 *     homeserver: https://matrix.example.org
 *     user_id: "@hermes:example.org"
 *     device_id: HERMESBOT          # optional; kept by a password login
 *     require_mention: true         # rooms: answer only when addressed (DMs always)
 *     auto_join: true               # accept invites from allowed users
 *     sync_timeout: 30              # /sync long-poll seconds
 *     allowed_users: ["@me:example.org"]
 * ```
 * Secrets (`.env`): `MATRIX_ACCESS_TOKEN` (or `MATRIX_PASSWORD`, logging in as `user_id`),
 * `MATRIX_ALLOWED_USERS`, `MATRIX_HOME_ROOM` (cron delivery).
 */
import { definePlatform, lookupSecret } from '@hermes/core';
import { z } from 'zod';
import { MatrixAdapter, MATRIX_MAX_LENGTH } from './adapter.js';

export { MatrixAdapter, MATRIX_MAX_LENGTH, APPROVAL_REACTIONS, type MatrixSettings } from './adapter.js';
export * from './events.js';
export { SyncStateFile, type SyncState } from './sync-state.js';

/** `platforms.matrix` (the keys every platform shares are in platform-config.ts). */
export const MatrixSettingsSchema = z.object({
  /** Homeserver base URL (client-server API). */
  homeserver: z.string().regex(/^https?:\/\/\S+$/, { error: 'expected an http(s) URL' }),
  /** The bot's user id, `@name:server`. */
  user_id: z
    .string()
    .regex(/^@[^:\s]+:\S+$/, { error: 'expected a Matrix user id like @hermes:example.org' }),
  /** Device id to log in with (password login) or that the token belongs to. */
  device_id: z.string().min(1).optional(),
  /** In rooms (not DMs) answer only messages that mention the bot (or in a thread it answers in). */
  require_mention: z.boolean().default(true),
  /** Accept room invites from allowed users (others' invites are left pending). */
  auto_join: z.boolean().default(true),
  /** /sync long-poll timeout, seconds. */
  sync_timeout: z.number().int().min(0).max(120).default(30),
});

/** The Matrix platform: settings, credentials and adapter. */
export const platform = definePlatform({
  name: 'matrix',
  label: 'Matrix',
  settings: MatrixSettingsSchema,
  secrets: z
    .object({
      MATRIX_ACCESS_TOKEN: z.string().min(8).optional(),
      MATRIX_PASSWORD: z.string().min(1).optional(),
    })
    .refine((s) => s.MATRIX_ACCESS_TOKEN !== undefined || s.MATRIX_PASSWORD !== undefined, {
      error: 'is not set',
      path: ['MATRIX_ACCESS_TOKEN'],
    }),
  createAdapter: ({ settings, secrets, ctx }) => {
    const fromEnv = (lookupSecret(ctx.secrets, 'MATRIX_ALLOWED_USERS') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return new MatrixAdapter(
      {
        homeserver: settings.homeserver,
        userId: settings.user_id,
        ...(settings.device_id ? { deviceId: settings.device_id } : {}),
        ...(secrets.MATRIX_ACCESS_TOKEN ? { accessToken: secrets.MATRIX_ACCESS_TOKEN } : {}),
        ...(secrets.MATRIX_PASSWORD ? { password: secrets.MATRIX_PASSWORD } : {}),
        requireMention: settings.require_mention,
        autoJoin: settings.auto_join,
        syncTimeoutMs: settings.sync_timeout * 1000,
        allowedUsers: [...ctx.config.allowed_users, ...fromEnv],
        allowAll: ctx.config.allow_all_users,
        maxFileBytes: ctx.config.max_file_bytes,
        maxImageBytes: ctx.hermesConfig.images.max_bytes,
        stateFile: ctx.home.path('platforms', 'matrix.json'),
      },
      { log: ctx.log },
    );
  },
  allowedUsersEnv: 'MATRIX_ALLOWED_USERS',
  maxMessageLength: MATRIX_MAX_LENGTH,
  longReplyAsFileAbove: MATRIX_MAX_LENGTH,
  cronDeliverEnvVar: 'MATRIX_HOME_ROOM',
  platformHint:
    'You are chatting on Matrix: replies are shown as plain text; keep them concise. Files the user sends are saved for you.',
  standaloneSender: async ({ settings, secrets }, chatId, text, opts) => {
    if (!secrets.MATRIX_ACCESS_TOKEN)
      return { ok: false, error: 'sending without the daemon needs MATRIX_ACCESS_TOKEN', retryable: false };
    const { MatrixClient } = await import('matrix-js-sdk');
    const client = new MatrixClient({
      baseUrl: settings.homeserver,
      accessToken: secrets.MATRIX_ACCESS_TOKEN,
      userId: settings.user_id,
    });
    try {
      const r = await client.sendEvent(
        chatId,
        'm.room.message' as never,
        {
          msgtype: 'm.text',
          body: text,
          ...(opts?.threadId
            ? { 'm.relates_to': { rel_type: 'm.thread', event_id: opts.threadId, is_falling_back: true } }
            : {}),
        } as never,
      );
      return { ok: true, messageId: r.event_id };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  },
});
