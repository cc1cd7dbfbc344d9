/**
 * HTTP plumbing of the API server: errors in OpenAI's shape with real statuses, the bounded JSON
 * body reader, and CORS for the configured browser origins only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from './openai-wire.js';

/** Largest request body accepted, bytes. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * An error answered as `{error: {message, type, param, code}}` with HTTP `status`: 400 a bad
 * request (`param` names the field), 401 a bad key, 404 unknown, 413 too large, 429 too many
 * requests, 500 the turn failed, 503 the server is stopping.
 */
export class ApiError extends Error {
  /**
   * @param retryable whether a client may send the request again: `false` once the agent's turn
   *   ran (a retry would run it, and its tools, again), answered as `x-should-retry: false`, which
   *   the `openai` SDKs obey instead of retrying every 5xx; `true` when nothing ran (the
   *   concurrency cap), with `retry-after`; default: no hint (a 4xx is not retried anyway).
   */
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly retryable?: boolean,
  ) {
    super(message);
  }

  /** Headers of the error answer: the retry hint (see the constructor). */
  headers(): ExtraHeaders {
    if (this.retryable === false) return { 'x-should-retry': 'false' };
    if (this.retryable === true) return { 'x-should-retry': 'true', 'retry-after': '1' };
    return {};
  }

  /** OpenAI's error type for the status. */
  get type(): string {
    if (this.status === 401) return 'authentication_error';
    if (this.status === 403) return 'permission_error';
    if (this.status === 404) return 'not_found_error';
    if (this.status === 429) return 'rate_limit_error';
    if (this.status >= 500) return 'server_error';
    return 'invalid_request_error';
  }

  /** The JSON body. */
  body(): object {
    return errorBody(this.message, this.type, this.code, this.param);
  }
}

/** Headers added to every answer (CORS for an allowed origin). */
export type ExtraHeaders = Record<string, string>;

/**
 * Headers of every answer: the body is never sniffed as another type, and a browser following a
 * link from an answer sends no referrer.
 */
export const SECURITY_HEADERS: ExtraHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Headers of a server-sent event stream: not cached, and not buffered by a reverse proxy (nginx
 * holds `text/event-stream` answers back otherwise, so no event would arrive until the end).
 */
export const SSE_HEADERS: ExtraHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  ...SECURITY_HEADERS,
};

/** Writes a JSON answer unless one was sent already. */
export function sendJson(res: ServerResponse, status: number, body: object, extra: ExtraHeaders = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...SECURITY_HEADERS, ...extra });
  res.end(JSON.stringify(body));
}

/** Writes `err` as an OpenAI-shaped error answer (with its retry hint). */
export function sendError(res: ServerResponse, err: ApiError, extra: ExtraHeaders = {}): void {
  sendJson(res, err.status, err.body(), { ...extra, ...err.headers() });
}

/** Bytes of a refused body read and dropped so its connection stays usable; past this it is closed. */
export const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Reads and drops the rest of a body the server refused: the client gets its answer and its
 * kept-alive connection stays in step (the next request starts where this body ends); a body
 * going on past `MAX_DRAIN_BYTES` closes the connection instead.
 */
function drain(req: IncomingMessage): void {
  let dropped = 0;
  req.on('data', (p: Buffer) => {
    dropped += p.length;
    if (dropped > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.resume();
}

/**
 * Reads a JSON object body of at most `MAX_BODY_BYTES`.
 * @throws ApiError 413 when larger (a `content-length` over the cap is refused before reading;
 *   the rest of the body is drained), 400 when it is not JSON or not an object, or was cut off.
 */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const tooLarge = (): ApiError =>
    new ApiError(413, `the request body is larger than ${MAX_BODY_BYTES} bytes`, null, 'request_too_large');
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    drain(req);
    throw tooLarge();
  }
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    const onData = (p: Buffer): void => {
      size += p.length;
      if (size <= MAX_BODY_BYTES) parts.push(p);
      else {
        stop();
        drain(req);
        reject(tooLarge());
      }
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(parts));
    };
    const onClose = (): void => {
      stop();
      reject(new ApiError(400, 'the request body was cut off', null, 'invalid_json'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, 'the body is not valid JSON', null, 'invalid_json');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new ApiError(400, 'the body must be a JSON object', null, 'invalid_json');
  return body as Record<string, unknown>;
}

/** Request headers a browser may always send (answered to a preflight). */
const ALLOWED_HEADERS =
  'authorization, content-type, x-hermes-session-id, x-hermes-conversation, openai-beta, x-stainless-os, x-stainless-lang, x-stainless-package-version, x-stainless-runtime, x-stainless-runtime-version, x-stainless-arch, x-stainless-retry-count, x-stainless-timeout';

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

/**
 * The headers a preflight allows: the fixed list plus the well-formed names the browser asks for
 * (`access-control-request-headers`) — SDKs add their own (the `openai` helpers send
 * `x-stainless-helper-method`), and every request still needs the key.
 */
export function allowedHeaders(requested: string | undefined): string {
  const names = new Set(ALLOWED_HEADERS.split(', '));
  for (const h of (requested ?? '').split(','))
    if (HEADER_NAME.test(h.trim()) && names.size < 64) names.add(h.trim().toLowerCase());
  return [...names].join(', ');
}

/**
 * CORS for the configured origins: `headers(req)` gives the headers of an answer to a request
 * from an allowed origin (none for others, so the browser refuses to show the answer), and
 * `preflight` decides an `OPTIONS` request: 204 with the allowed methods and headers for an
 * allowed origin, 403 otherwise. No origin is allowed unless configured; `*` is not accepted.
 */
export class Cors {
  private readonly origins: Set<string>;

  /** @param origins exact origins, e.g. `http://localhost:3000` (a trailing `/` is ignored). */
  constructor(origins: readonly string[]) {
    this.origins = new Set(origins.map((o) => o.replace(/\/+$/, '').toLowerCase()));
  }

  /** True when the request's `Origin` is one of the configured ones. */
  allowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    return typeof origin === 'string' && this.origins.has(origin.toLowerCase());
  }

  /** Headers of an answer to `req` (empty unless its origin is allowed). */
  headers(req: IncomingMessage): ExtraHeaders {
    if (!this.allowed(req)) return {};
    return {
      'access-control-allow-origin': req.headers.origin!,
      vary: 'Origin',
      'access-control-expose-headers': 'x-hermes-session-id, x-request-id',
    };
  }

  /** Answers a preflight (`OPTIONS`): no key needed, allowed origins only. */
  preflight(req: IncomingMessage, res: ServerResponse): void {
    if (!this.allowed(req)) {
      sendError(res, new ApiError(403, 'this origin is not allowed (platforms.api_server.cors_origins)'));
      return;
    }
    res.writeHead(204, {
      ...this.headers(req),
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers': allowedHeaders(req.headers['access-control-request-headers']),
      'access-control-max-age': '600',
    });
    res.end();
  }
}
