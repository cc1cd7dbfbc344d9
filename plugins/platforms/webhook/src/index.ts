/**
 * `@hermes/platform-webhook`: a generic webhook platform. Its main export is the
 * registry entry `platform`.
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
import { lookupSecret, type PlatformContext, type PlatformEntry } from '@hermes/core';
import { postSigned, WebhookAdapter, type WebhookSettings } from './adapter.js';

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

/** Reads `platforms.webhook` and the secret. @returns the settings or a one-line problem. */
export function webhookSettings(ctx: PlatformContext): WebhookSettings | string {
  const c = ctx.config as Record<string, unknown>;
  const secret = lookupSecret(ctx.secrets, 'WEBHOOK_SECRET');
  if (!secret) return 'WEBHOOK_SECRET is not set in the profile .env';
  if (secret.length < 16) return 'WEBHOOK_SECRET must be at least 16 characters';
  const host = c.host ?? '127.0.0.1';
  if (typeof host !== 'string' || !host) return 'platforms.webhook.host must be an address';
  const port = c.port ?? DEFAULT_WEBHOOK_PORT;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535)
    return 'platforms.webhook.port must be a port number';
  const path = c.path ?? '/webhook';
  if (typeof path !== 'string' || !/^\/[\w./-]*$/.test(path))
    return 'platforms.webhook.path must start with /';
  const out = c.outbound_url;
  if (out !== undefined && (typeof out !== 'string' || !/^https?:\/\/\S+$/.test(out)))
    return 'platforms.webhook.outbound_url must be an http(s) URL';
  return { host, port, path, secret, ...(out ? { outboundUrl: out } : {}) };
}

/** The registry entry of the webhook platform. */
export const platform: PlatformEntry = {
  name: 'webhook',
  label: 'Webhook',
  checkRequirements: (ctx) => {
    const s = webhookSettings(ctx);
    return typeof s === 'string' ? s : true;
  },
  createAdapter: (ctx) => {
    const s = webhookSettings(ctx);
    if (typeof s === 'string') throw new Error(s);
    return new WebhookAdapter(s, {
      log: ctx.log,
      ...(ctx.replayGuard ? { replayGuard: ctx.replayGuard } : {}),
    });
  },
  // every request is HMAC-signed: the adapter authenticates, not the allow-lists
  authorization: 'adapter',
  quietResets: true,
  piiSafe: true,
  requiredSecrets: ['WEBHOOK_SECRET'],
  platformHint: 'Messages come from an automated webhook; replies are POSTed back to a program.',
  standaloneSender: async (ctx, chatId, text) => {
    const s = webhookSettings(ctx);
    if (typeof s === 'string') return { ok: false, error: s };
    if (!s.outboundUrl) return { ok: false, error: 'platforms.webhook.outbound_url is not set' };
    return postSigned(s.outboundUrl, s.secret, { conversation: chatId, text, kind: 'notice' });
  },
};
