// Error classification of SDK, network and abort errors.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyError, ModelError, retryAfterMs } from './errors.js';

const apiError = (status: number, message: string, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status, { error: { message } }, message, new Headers(headers));

describe('classifyError', () => {
  it.each([
    [429, 'slow down', 'rate_limit', true],
    [402, 'Insufficient credits', 'rate_limit', true],
    [500, 'boom', 'server', true],
    [503, 'overloaded', 'server', true],
    [401, 'bad key', 'auth', false],
    [403, 'forbidden', 'auth', false],
    [413, 'too large', 'context_overflow', false],
    [400, "This model's maximum context length is 8192 tokens", 'context_overflow', false],
    [400, 'messages: field required', 'bad_request', false],
    [404, 'model not found', 'bad_request', false],
  ] as const)('HTTP %i "%s" → %s', (status, message, kind, retryable) => {
    const err = classifyError(apiError(status, message), 'openai');
    expect(err).toMatchObject({ kind, status, retryable, provider: 'openai' });
  });

  it('reads Retry-After in seconds, as a date, and retry-after-ms', () => {
    expect(classifyError(apiError(429, 'x', { 'retry-after': '7' }), 'p').retryAfterMs).toBe(7000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });

  it('names the provider, variable and .env file on auth errors, without the key', () => {
    const err = classifyError(apiError(401, 'Incorrect API key provided: sk-abc123xyz'), 'openai', {
      keyVar: 'OPENAI_API_KEY',
      envFile: '/root/.hermes/.env',
      secrets: ['sk-abc123xyz'],
    });
    expect(err.message).toMatch(/"openai".*OPENAI_API_KEY.*\/root\/\.hermes\/\.env/);
    expect(err.message).not.toContain('sk-abc123xyz');
  });

  it('recognises network failures, timeouts and aborts', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const conn = new OpenAI.APIConnectionError({
      message: 'Connection error.',
      cause: new TypeError('fetch failed', { cause: refused }),
    });
    expect(classifyError(conn, 'custom')).toMatchObject({ kind: 'network', retryable: true });
    expect(classifyError(conn, 'custom').message).toContain('ECONNREFUSED');
    expect(
      classifyError(conn, 'custom', { model: 'm', baseUrl: 'http://u:pw@127.0.0.1:1/v1/?key=k' }).message,
    ).toBe('Could not reach custom at http://127.0.0.1:1/v1 (model m): connect ECONNREFUSED 127.0.0.1:1');
    expect(classifyError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), 'c').kind).toBe(
      'network',
    );
    expect(classifyError(new OpenAI.APIConnectionTimeoutError(), 'c').kind).toBe('timeout');
    expect(classifyError(new OpenAI.APIUserAbortError(), 'c')).toMatchObject({
      kind: 'aborted',
      retryable: false,
    });
    const inStream = new OpenAI.APIError(undefined, { message: 'upstream failed' }, undefined, undefined);
    expect(classifyError(inStream, 'c').kind).toBe('server');
  });

  it('returns a ModelError unchanged', () => {
    const e = new ModelError('bad_request', 'x', { provider: 'p' });
    expect(classifyError(e, 'other')).toBe(e);
  });
});
