/**
 * `@hermes/platform-api_server`: an OpenAI-compatible HTTP API served by the daemon on loopback.
 * Its main export is the definition `platform`.
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
 *     cors_origins: []        # browser origins allowed (exact, e.g. http://localhost:3000)
 *     max_concurrent_requests: 10  # chat requests answered at once; more get 429
 * ```
 * Secret (`.env`): `API_SERVER_KEY`, the bearer key clients send (required).
 * Client: `new OpenAI({ baseURL: 'http://127.0.0.1:8642/v1', apiKey })`; stateless (send the
 * whole `messages`), or the `X-Hermes-Session-Id` header naming a stored conversation
 * (docs/api-server.md).
 */
import { definePlatform } from '@hermes/core';
import { z } from 'zod';
import { ApiServerAdapter } from './adapter.js';

export { ApiServerAdapter, MAX_BODY_BYTES, type ApiServerSettings } from './adapter.js';
export { ApiError, Cors } from './http.js';
export { readChatRequest, type ChatRequest } from './chat-request.js';
export * from './openai-wire.js';

/** Default port of the API server. */
export const DEFAULT_API_PORT = 8642;

const LOOPBACK = ['127.0.0.1', '::1', 'localhost'] as const;

/** `platforms.api_server` (the keys every platform shares are in platform-config.ts). */
export const ApiServerSettingsSchema = z.object({
  host: z
    .enum(LOOPBACK, { error: 'must be a loopback address (127.0.0.1, ::1, localhost)' })
    .default('127.0.0.1'),
  /** 0: any free port. */
  port: z.number().int().min(0).max(65535).default(DEFAULT_API_PORT),
  /** Model id the API reports. */
  model_name: z.string().regex(/\S/, { error: 'expected text' }).default('hermes-agent'),
  /** Keep one-off requests (no conversation) in the session store (read by the daemon's host). */
  store: z.boolean().optional(),
  /** Live sessions kept loaded, least recently used unloaded first (read by the daemon's host). */
  max_live_sessions: z.number().positive().optional(),
  /** A live session idle this long is unloaded, minutes (read by the daemon's host). */
  live_idle_minutes: z.number().positive().optional(),
  /**
   * Browser origins allowed to call the API (CORS), exact (`http://localhost:3000`); default
   * none: a browser preflight is refused. `*` is not accepted.
   */
  cors_origins: z
    .array(
      z.string().regex(/^https?:\/\/[^\s/]+\/?$/, { error: 'expected origins like http://localhost:3000' }),
    )
    .default([]),
  /** Chat requests answered at once (queued ones of a conversation included); more get 429. */
  max_concurrent_requests: z.number().int().positive().default(10),
});

/** The API server platform: settings, bearer key and adapter. */
export const platform = definePlatform({
  name: 'api_server',
  label: 'API server',
  settings: ApiServerSettingsSchema,
  secrets: z.object({
    /** The bearer key clients must send. */
    API_SERVER_KEY: z.string().min(16),
  }),
  createAdapter: ({ settings, secrets, ctx }) =>
    new ApiServerAdapter(
      {
        host: settings.host,
        port: settings.port,
        key: secrets.API_SERVER_KEY,
        modelName: settings.model_name,
        corsOrigins: settings.cors_origins,
        maxConcurrent: settings.max_concurrent_requests,
      },
      { log: ctx.log, ...(ctx.apiResponses ? { responses: ctx.apiResponses } : {}) },
    ),
  // every request carries the bearer key: the adapter authenticates, not the allow-lists
  authorization: 'adapter',
  quietResets: true,
  // a conversation the client named (a session header, a response chain) lasts until the client
  // drops it: no daily or idle reset unless platforms.api_server.reset says so
  defaultReset: { mode: 'none' },
  // the answer is the HTTP response: nothing to resend once the caller is gone
  durableReplies: false,
  piiSafe: true,
  platformHint:
    'You are answering through an OpenAI-compatible HTTP API: another program may read your reply; answer directly.',
});
