/**
 * `@hermes/platform-webhook`: a generic webhook platform. Its main export is the
 * definition `platform`.
 *
 * ```yaml
 * platforms:
 *   webhook:
 *     enabled: true
 *     host: 127.0.0.1        # the HMAC signature protects it; bind wider only behind care
 *     port: 8644
 *     path: /webhook
 *     outbound_url: https://example.com/hermes-replies
 * ```
 * Secret (`.env`): `WEBHOOK_SECRET` (at least 16 characters), shared with the other side: it
 * signs inbound and outbound requests (signature.ts).
 */
import { definePlatform } from '@hermes/core';
import { z } from 'zod';
import { postSigned, WebhookAdapter } from './adapter.js';

export {
  DELIVERY_HEADER,
  MAX_WEBHOOK_BODY,
  postSigned,
  WebhookAdapter,
  type WebhookSettings,
} from './adapter.js';
export * from './signature.js';

/** Default port of the inbound server. */
export const DEFAULT_WEBHOOK_PORT = 8644;

/** `platforms.webhook` (the keys every platform shares are in platform-config.ts). */
export const WebhookSettingsSchema = z.object({
  /** Address of the inbound server. */
  host: z.string().min(1, { error: 'expected an address' }).default('127.0.0.1'),
  /** Port of the inbound server (0: any free port). */
  port: z.number().int().min(0).max(65535).default(DEFAULT_WEBHOOK_PORT),
  path: z
    .string()
    .regex(/^\/[\w./-]*$/, { error: 'must start with /' })
    .default('/webhook'),
  /** Where replies are POSTed. */
  outbound_url: z
    .string()
    .regex(/^https?:\/\/\S+$/, { error: 'expected an http(s) URL' })
    .optional(),
});

/** The webhook platform: settings, shared secret and adapter. */
export const platform = definePlatform({
  name: 'webhook',
  label: 'Webhook',
  settings: WebhookSettingsSchema,
  secrets: z.object({
    /** Signs inbound and outbound requests (HMAC-SHA256). */
    WEBHOOK_SECRET: z.string().min(16),
  }),
  createAdapter: ({ settings, secrets, ctx }) =>
    new WebhookAdapter(
      {
        host: settings.host,
        port: settings.port,
        path: settings.path,
        secret: secrets.WEBHOOK_SECRET,
        ...(settings.outbound_url ? { outboundUrl: settings.outbound_url } : {}),
      },
      { log: ctx.log, ...(ctx.replayGuard ? { replayGuard: ctx.replayGuard } : {}) },
    ),
  // every request is HMAC-signed: the adapter authenticates, not the allow-lists
  authorization: 'adapter',
  quietResets: true,
  piiSafe: true,
  platformHint: 'Messages come from an automated webhook; replies are POSTed back to a program.',
  standaloneSender: async ({ settings, secrets }, chatId, text) => {
    if (!settings.outbound_url) return { ok: false, error: 'platforms.webhook.outbound_url is not set' };
    return postSigned(settings.outbound_url, secrets.WEBHOOK_SECRET, {
      conversation: chatId,
      text,
      kind: 'notice',
    });
  },
});
