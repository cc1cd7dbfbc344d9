/**
 * Classification of model-call failures (behaviour after the original's
 * `agent/error_classifier.py`, reduced to the kinds of `ModelErrorKind`).
 *
 * | kind               | when                                                        | retried |
 * |--------------------|-------------------------------------------------------------|---------|
 * | `rate_limit`       | 429; 402 / "insufficient credits" (a key-level exhaustion)  | yes     |
 * | `server`           | 5xx, 408, 409, a stream that broke with a server error      | yes     |
 * | `timeout`          | no response headers / no chunk within `model.timeout`       | yes     |
 * | `network`          | ECONNREFUSED, ECONNRESET, DNS failures, a cut stream        | yes     |
 * | `auth`             | 401, 403                                                    | no      |
 * | `context_overflow` | 413, or 400 whose message speaks of context/tokens length   | no      |
 * | `bad_request`      | other 4xx                                                   | no      |
 * | `aborted`          | the caller's AbortSignal fired                              | no      |
 *
 * "Retried" means: up to 3 times on the same provider with backoff, then the fallback providers.
 * Auth errors are not retried on the same key but may rotate keys or fall back (see client.ts).
 */
import OpenAI from 'openai';
import type { ModelErrorKind, ToolCall } from './types.js';

/** What a call streamed before it failed or was aborted. */
export interface PartialOutput {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
}

/** Kinds worth retrying on the same provider (and then falling back). */
export const TRANSIENT_KINDS: ReadonlySet<ModelErrorKind> = new Set([
  'rate_limit',
  'server',
  'timeout',
  'network',
]);

/** A classified model-call failure. The message never contains an API key. */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  readonly kind: ModelErrorKind;
  /** HTTP status when the provider answered with one. */
  readonly status?: number;
  /** Provider name (`openrouter`, `openai`, `custom`, `auto`). */
  readonly provider: string;
  /** True for the transient kinds (`rate_limit`, `server`, `timeout`, `network`). */
  readonly retryable: boolean;
  /** Milliseconds the provider asked to wait (`Retry-After` / `retry-after-ms`), when it said. */
  readonly retryAfterMs?: number;
  /** Output streamed before the failure (always set for `aborted`). */
  partial?: PartialOutput;

  constructor(
    kind: ModelErrorKind,
    message: string,
    opts: {
      provider: string;
      status?: number;
      retryAfterMs?: number;
      partial?: PartialOutput;
      cause?: unknown;
    },
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.kind = kind;
    this.provider = opts.provider;
    this.retryable = TRANSIENT_KINDS.has(kind);
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.retryAfterMs !== undefined) this.retryAfterMs = opts.retryAfterMs;
    if (opts.partial !== undefined) this.partial = opts.partial;
  }
}

/** Hints that make messages actionable. */
export interface ClassifyHints {
  /** Variable the provider's key is read from, e.g. `OPENROUTER_API_KEY`. */
  keyVar?: string;
  /** Path of the home's `.env` file, named in auth messages. */
  envFile?: string;
  /** Model id of the call, named in messages. */
  model?: string;
  /** Values to scrub from messages (the keys in use). */
  secrets?: readonly string[];
  /** Base URL of the call, named (without credentials or query) when the server cannot be reached. */
  baseUrl?: string;
}

/** ` at ORIGIN/PATH` of a base URL for a message (user, password and query left out), or ''. */
export function reachedAt(baseUrl: string | undefined): string {
  if (!baseUrl) return '';
  try {
    const u = new URL(baseUrl);
    return ` at ${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '';
  }
}

const CONTEXT_PATTERNS = [
  'context length',
  'context_length',
  'context window',
  'maximum context',
  'context size',
  'too many tokens',
  'token limit',
  'reduce the length',
  'prompt is too long',
  'input is too long',
  'max_model_len',
  'maximum model length',
  'exceeds the maximum number of',
  'request entity too large',
  'payload too large',
];
const BILLING_PATTERNS = [
  'insufficient credits',
  'insufficient_quota',
  'exceeded your current quota',
  'payment required',
];
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The chain of `cause`s of an error (itself first), at most 6 deep. */
function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  let cur: unknown = err;
  while (cur !== undefined && cur !== null && out.length < 6) {
    out.push(cur);
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}

function codeOf(err: unknown): string | undefined {
  for (const e of causes(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * Milliseconds to wait from `retry-after-ms` or `Retry-After` (seconds or an HTTP date).
 * Returns undefined when absent or unparsable; never negative.
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return undefined;
  if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function scrub(message: string, secrets: readonly string[] | undefined): string {
  let out = message;
  for (const s of secrets ?? []) if (s.length >= 4) out = out.split(s).join('***');
  return out;
}

/** The message for an auth failure: names the provider, the key's variable and the .env file. */
export function authMessage(
  provider: string,
  status: number | undefined,
  detail: string,
  hints: ClassifyHints,
): string {
  const where = hints.envFile ?? "the home's .env file";
  const variable = hints.keyVar
    ? `Check the key in ${hints.keyVar}: set it in ${where} (or export it in the environment).`
    : `This provider was called without a key: set model.api_key_env in config.yaml to the name of a variable in ${where}.`;
  return `Authentication failed for provider "${provider}"${status ? ` (HTTP ${status})` : ''}: ${detail}. ${variable}`;
}

/**
 * Classifies any error thrown by a model call (an `openai` SDK error, a fetch/undici error, an
 * AbortError, or a ModelError, which is returned unchanged).
 * @param provider provider name recorded on the error and named in messages.
 */
export function classifyError(err: unknown, provider: string, hints: ClassifyHints = {}): ModelError {
  if (err instanceof ModelError) return err;
  const raw = err instanceof Error ? err.message : String(err);
  const detail = scrub(raw, hints.secrets).replace(/\s+/g, ' ').trim() || 'no details';
  const lower = detail.toLowerCase();
  const about = hints.model ? ` (model ${hints.model})` : '';
  const make = (kind: ModelErrorKind, message: string, status?: number, retryAfter?: number) =>
    new ModelError(kind, message, { provider, status, retryAfterMs: retryAfter, cause: err });

  if (err instanceof OpenAI.APIUserAbortError || (err instanceof Error && err.name === 'AbortError')) {
    return make('aborted', `The model call to ${provider} was interrupted`);
  }
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return make('timeout', `The model call to ${provider}${about} timed out`);
  }
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    return classifyHttpStatus(err.status, err.headers, err, provider, hints);
  }
  if (err instanceof OpenAI.APIConnectionError) {
    const code = codeOf(err);
    if (code && TIMEOUT_CODES.has(code))
      return make('timeout', `The model call to ${provider}${about} timed out`);
    const at = reachedAt(hints.baseUrl);
    return make('network', `Could not reach ${provider}${at}${about}: ${describeCause(err) ?? detail}`);
  }
  if (err instanceof OpenAI.APIError) {
    // An error object inside the stream (no HTTP status): the provider failed mid-answer.
    if (CONTEXT_PATTERNS.some((p) => lower.includes(p))) {
      return make('context_overflow', `The conversation is too long for the model${about}: ${detail}`);
    }
    if (lower.includes('rate limit') || lower.includes('too many requests')) {
      return make('rate_limit', `Rate limited by ${provider}${about}: ${detail}`);
    }
    return make('server', `${provider} failed while answering${about}: ${detail}`);
  }
  const code = codeOf(err);
  if (code && TIMEOUT_CODES.has(code))
    return make('timeout', `The model call to ${provider}${about} timed out`);
  if ((code && NETWORK_CODES.has(code)) || /fetch failed|terminated|socket|network/i.test(detail)) {
    return make('network', `Connection to ${provider} failed${about}: ${describeCause(err) ?? detail}`);
  }
  return make('server', `The model call to ${provider} failed${about}: ${detail}`);
}

/**
 * Classifies an HTTP error answer of any provider SDK by its status (the table in this file's
 * header): 401/403 `auth`, 429 `rate_limit`, 402 or a billing message `rate_limit`, 413 or a 400
 * about the context length `context_overflow`, 5xx/408/409 `server`, other statuses `bad_request`.
 * `Retry-After` is read from `headers`. @param err the SDK's error (its message, scrubbed, is named).
 */
export function classifyHttpStatus(
  status: number,
  headers: Headers | undefined,
  err: unknown,
  provider: string,
  hints: ClassifyHints = {},
): ModelError {
  const raw = err instanceof Error ? err.message : String(err);
  const detail = scrub(raw, hints.secrets).replace(/\s+/g, ' ').trim() || 'no details';
  const lower = detail.toLowerCase();
  const about = hints.model ? ` (model ${hints.model})` : '';
  const make = (kind: ModelErrorKind, message: string, retryAfter?: number) =>
    new ModelError(kind, message, { provider, status, retryAfterMs: retryAfter, cause: err });
  const wait = retryAfterMs(headers);
  if (status === 401 || status === 403) return make('auth', authMessage(provider, status, detail, hints));
  if (status === 429) return make('rate_limit', `Rate limited by ${provider}${about}: ${detail}`, wait);
  if (status === 402 || BILLING_PATTERNS.some((p) => lower.includes(p))) {
    return make('rate_limit', `${provider} refused the key for billing/quota${about}: ${detail}`, wait);
  }
  if (status === 413 || (status === 400 && CONTEXT_PATTERNS.some((p) => lower.includes(p)))) {
    return make('context_overflow', `The conversation is too long for the model${about}: ${detail}`);
  }
  if (status >= 500 || status === 408 || status === 409) {
    return make('server', `${provider} had a server error${about}: ${detail}`, wait);
  }
  return make('bad_request', `${provider} rejected the request${about}: ${detail}`);
}

/** Scrubs `secrets` (the keys in use) out of `message`; exported for the other SDKs' classifiers. */
export function scrubSecrets(message: string, secrets: readonly string[] | undefined): string {
  return scrub(message, secrets);
}

/** Whether `text` (lower case) speaks of a too-long context. */
export function isContextMessage(text: string): boolean {
  const lower = text.toLowerCase();
  return CONTEXT_PATTERNS.some((p) => lower.includes(p));
}

/** The error code (`ECONNREFUSED`, `ETIMEDOUT` …) in an error's cause chain, when one is a timeout. */
export function isTimeoutCode(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && TIMEOUT_CODES.has(code);
}

/** The innermost cause's code and message, e.g. `ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9`. */
function describeCause(err: unknown): string | undefined {
  const chain = causes(err);
  const inner = chain[chain.length - 1];
  if (inner === err || !(inner instanceof Error)) return undefined;
  const code = (inner as { code?: unknown }).code;
  return typeof code === 'string' && !inner.message.includes(code)
    ? `${code} ${inner.message}`
    : inner.message;
}
