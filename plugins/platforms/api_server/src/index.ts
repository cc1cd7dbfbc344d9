/**
 * `@hermes/platform-api_server`: an OpenAI-compatible HTTP API served by the daemon on loopback
 *. Its main export is the registry entry `platform`.
 *
 * ```yaml
 * platforms:
 *   api_server:
 *     enabled: true
 *     port: 8642              # on 127.0.0.1
 *     model_name: hermes-agent
 *     store: false            # keep one-off requests (no conversation) in the session store
 *     max_live_sessions: 64   # live sessions kept loaded (least recently used unloaded first)
 *     live_idle_minutes: 15   # a live session idle this long is unloaded
 * ```
 * Secret (`.env`): `API_SERVER_KEY`, the bearer key clients send (required).
 * Client: `new OpenAI({ baseURL: 'http://127.0.0.1:8642/v1', apiKey })`, with `user` (or the
 * `X-Hermes-Conversation` header) naming the conversation.
 */
import { lookupSecret, type PlatformContext, type PlatformEntry } from '@hermes/core';
import { ApiServerAdapter, type ApiServerSettings } from './adapter.js';

export { ApiServerAdapter, MAX_BODY_BYTES, type ApiServerSettings } from './adapter.js';
export * from './openai-wire.js';

/** Default port of the API server. */
export const DEFAULT_API_PORT = 8642;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Reads and checks `platforms.api_server` and the key. @returns the settings or a one-line problem. */
export function apiServerSettings(ctx: PlatformContext): ApiServerSettings | string {
  const c = ctx.config as Record<string, unknown>;
  const key = lookupSecret(ctx.secrets, 'API_SERVER_KEY');
  if (!key) return 'API_SERVER_KEY is not set in the profile .env (the bearer key clients must send)';
  if (key.length < 16) return 'API_SERVER_KEY must be at least 16 characters';
  const host = c.host ?? '127.0.0.1';
  if (typeof host !== 'string' || !LOOPBACK.has(host))
    return 'platforms.api_server.host must be a loopback address (127.0.0.1, ::1, localhost)';
  const port = c.port ?? DEFAULT_API_PORT;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535)
    return 'platforms.api_server.port must be a port number';
  const modelName = c.model_name ?? 'hermes-agent';
  if (typeof modelName !== 'string' || !modelName.trim())
    return 'platforms.api_server.model_name must be text';
  if (c.store !== undefined && typeof c.store !== 'boolean')
    return 'platforms.api_server.store must be true or false';
  for (const k of ['max_live_sessions', 'live_idle_minutes'] as const)
    if (c[k] !== undefined && (typeof c[k] !== 'number' || !((c[k] as number) > 0)))
      return `platforms.api_server.${k} must be a positive number`;
  return { host, port, key, modelName };
}

/** The registry entry of the API server. */
export const platform: PlatformEntry = {
  name: 'api_server',
  label: 'API server',
  checkRequirements: (ctx) => {
    const s = apiServerSettings(ctx);
    return typeof s === 'string' ? s : true;
  },
  createAdapter: (ctx) => {
    const s = apiServerSettings(ctx);
    if (typeof s === 'string') throw new Error(s);
    return new ApiServerAdapter(s, { log: ctx.log });
  },
  // every request carries the bearer key: the adapter authenticates, not the allow-lists
  authorization: 'adapter',
  quietResets: true,
  // the answer is the HTTP response: nothing to resend once the caller is gone
  durableReplies: false,
  piiSafe: true,
  requiredSecrets: ['API_SERVER_KEY'],
  platformHint:
    'You are answering through an OpenAI-compatible HTTP API: another program may read your reply; answer directly.',
};
