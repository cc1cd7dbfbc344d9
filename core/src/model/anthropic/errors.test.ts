import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { classifyAnthropicError } from './errors.js';

const headers = (h: Record<string, string> = {}) => new Headers(h);
/** An HTTP error as the SDK makes it; with no status, the error an `event: error` in the stream throws. */
const api = (status: number | undefined, type: string, message: string, h?: Record<string, string>) =>
  status === undefined
    ? new Anthropic.APIError(
        undefined,
        { type: 'error', error: { type, message } },
        undefined,
        headers(h),
        type as ConstructorParameters<typeof Anthropic.APIError>[4],
      )
    : Anthropic.APIError.generate(status, { type: 'error', error: { type, message } }, undefined, headers(h));

describe('anthropic error classification', () => {
  it.each([
    [529, 'overloaded_error', 'Overloaded', 'server', true],
    [500, 'api_error', 'Internal', 'server', true],
    [429, 'rate_limit_error', 'slow down', 'rate_limit', true],
    [401, 'authentication_error', 'invalid x-api-key', 'auth', false],
    [403, 'permission_error', 'no', 'auth', false],
    [
      400,
      'invalid_request_error',
      'prompt is too long: 300000 tokens > 200000 maximum',
      'context_overflow',
      false,
    ],
    [413, 'request_too_large', 'Request exceeds the maximum size', 'context_overflow', false],
    [400, 'invalid_request_error', 'tools.0.name: bad', 'bad_request', false],
    [404, 'not_found_error', 'model: claude-nope', 'bad_request', false],
  ])('HTTP %i %s → %s', (status, type, message, kind, retryable) => {
    const e = classifyAnthropicError(api(status, type, message), 'anthropic', {
      keyVar: 'ANTHROPIC_API_KEY',
    });
    expect(e).toMatchObject({ kind, retryable, status, provider: 'anthropic' });
  });

  it('honours retry-after and names the key variable on auth failures (never the key)', () => {
    expect(
      classifyAnthropicError(api(429, 'rate_limit_error', 'x', { 'retry-after': '7' }), 'anthropic')
        .retryAfterMs,
    ).toBe(7000);
    const auth = classifyAnthropicError(
      api(401, 'authentication_error', 'bad key sk-ant-secret-9'),
      'anthropic',
      {
        keyVar: 'ANTHROPIC_API_KEY',
        envFile: '/h/.env',
        secrets: ['sk-ant-secret-9'],
      },
    );
    expect(auth.message).toContain('ANTHROPIC_API_KEY');
    expect(auth.message).toContain('/h/.env');
    expect(auth.message).not.toContain('sk-ant-secret-9');
  });

  it('classifies error events inside the stream by their type', () => {
    expect(classifyAnthropicError(api(undefined, 'overloaded_error', 'Overloaded'), 'anthropic').kind).toBe(
      'server',
    );
    expect(classifyAnthropicError(api(undefined, 'rate_limit_error', 'slow'), 'anthropic').kind).toBe(
      'rate_limit',
    );
    expect(
      classifyAnthropicError(api(undefined, 'invalid_request_error', 'prompt is too long'), 'anthropic').kind,
    ).toBe('context_overflow');
    expect(classifyAnthropicError(api(undefined, 'api_error', 'oops'), 'anthropic').kind).toBe('server');
  });

  it('maps aborts, timeouts and connection failures', () => {
    expect(classifyAnthropicError(new Anthropic.APIUserAbortError(), 'anthropic').kind).toBe('aborted');
    expect(classifyAnthropicError(new Anthropic.APIConnectionTimeoutError(), 'anthropic').kind).toBe(
      'timeout',
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(
      classifyAnthropicError(new Anthropic.APIConnectionError({ cause: refused }), 'anthropic'),
    ).toMatchObject({
      kind: 'network',
      retryable: true,
    });
  });
});
