/**
 * Anthropic SDK errors → the classification of errors.ts:
 *
 * | Anthropic                                              | kind               |
 * |--------------------------------------------------------|--------------------|
 * | 529 `overloaded_error`, 5xx, `api_error`               | `server` (retried) |
 * | 429 `rate_limit_error` (with `retry-after`)            | `rate_limit`       |
 * | 401 `authentication_error`, 403 `permission_error`     | `auth`             |
 * | 400 "prompt is too long" (and other context messages), 413 | `context_overflow` |
 * | other 400 `invalid_request_error`, 404 …               | `bad_request`      |
 * | an `error` event inside the stream: by its type         | as above, else `server` |
 * | no connection / timeouts / the caller's abort           | `network` / `timeout` / `aborted` |
 */
import Anthropic from '@anthropic-ai/sdk';
import {
  classifyError,
  classifyHttpStatus,
  isContextMessage,
  isTimeoutCode,
  ModelError,
  reachedAt,
  scrubSecrets,
  type ClassifyHints,
} from '../errors.js';

/** Classifies anything an Anthropic Messages call threw. */
export function classifyAnthropicError(
  err: unknown,
  provider: string,
  hints: ClassifyHints = {},
): ModelError {
  if (err instanceof ModelError) return err;
  const about = hints.model ? ` (model ${hints.model})` : '';
  const detailOf = () =>
    scrubSecrets(err instanceof Error ? err.message : String(err), hints.secrets)
      .replace(/\s+/g, ' ')
      .trim() || 'no details';
  const make = (kind: ConstructorParameters<typeof ModelError>[0], message: string) =>
    new ModelError(kind, message, { provider, cause: err });

  if (err instanceof Anthropic.APIUserAbortError) {
    return make('aborted', `The model call to ${provider} was interrupted`);
  }
  if (err instanceof Anthropic.APIConnectionTimeoutError) {
    return make('timeout', `The model call to ${provider}${about} timed out`);
  }
  if (err instanceof Anthropic.APIConnectionError) {
    if (isTimeoutCode(err)) return make('timeout', `The model call to ${provider}${about} timed out`);
    const inner = (err as { cause?: unknown }).cause;
    const why = inner instanceof Error ? inner.message : detailOf();
    return make('network', `Could not reach ${provider}${reachedAt(hints.baseUrl)}${about}: ${why}`);
  }
  if (err instanceof Anthropic.APIError) {
    if (typeof err.status === 'number')
      return classifyHttpStatus(err.status, err.headers, err, provider, hints);
    // an `error` event in the middle of the stream: no status, its type says what happened
    const type = (err as { type?: string | null }).type ?? '';
    const detail = detailOf();
    if (type === 'rate_limit_error')
      return make('rate_limit', `Rate limited by ${provider}${about}: ${detail}`);
    if (type === 'overloaded_error') return make('server', `${provider} is overloaded${about}: ${detail}`);
    if (isContextMessage(detail)) {
      return make('context_overflow', `The conversation is too long for the model${about}: ${detail}`);
    }
    if (type === 'invalid_request_error')
      return make('bad_request', `${provider} rejected the request${about}: ${detail}`);
    return make('server', `${provider} failed while answering${about}: ${detail}`);
  }
  return classifyError(err, provider, hints);
}
