/** OpenAI-shaped errors and CORS for configured origins only. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ApiError, Cors, allowedHeaders, sendError } from './http.js';

function req(origin?: string): IncomingMessage {
  return { headers: origin ? { origin } : {} } as IncomingMessage;
}

function res(): ServerResponse & { status?: number; head?: Record<string, string> } {
  const r = {
    headersSent: false,
    writeHead(status: number, head: Record<string, string>) {
      r.status = status;
      r.head = head;
    },
    end() {},
  } as unknown as ServerResponse & { status?: number; head?: Record<string, string> };
  return r;
}

describe('ApiError', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [404, 'not_found_error'],
    [413, 'invalid_request_error'],
    [429, 'rate_limit_error'],
    [500, 'server_error'],
    [503, 'server_error'],
  ])('%i is %s', (status, type) => {
    expect(new ApiError(status, 'm', 'p', 'c').body()).toEqual({
      error: { message: 'm', type, param: 'p', code: 'c' },
    });
  });

  it('tells SDKs whether to retry: never once the turn ran, soon when nothing ran', () => {
    const ran = res();
    sendError(ran, new ApiError(500, 'the turn failed', null, 'turn_failed', false));
    expect(ran.head).toMatchObject({ 'x-should-retry': 'false', 'x-content-type-options': 'nosniff' });
    const busy = res();
    sendError(busy, new ApiError(429, 'too many', null, 'rate_limit_exceeded', true));
    expect(busy.head).toMatchObject({ 'x-should-retry': 'true', 'retry-after': '1' });
    const bad = res();
    sendError(bad, new ApiError(400, 'bad'));
    expect(bad.head!['x-should-retry']).toBeUndefined();
  });
});

describe('Cors', () => {
  const cors = new Cors(['http://localhost:3000/']);
  it('answers a preflight of a configured origin, and only that', () => {
    const ok = res();
    cors.preflight(req('http://localhost:3000'), ok);
    expect(ok.status).toBe(204);
    expect(ok.head).toMatchObject({ 'access-control-allow-origin': 'http://localhost:3000' });
    expect(ok.head!['access-control-allow-headers']).toContain('authorization');
    const refused = res();
    cors.preflight(req('http://evil.example'), refused);
    expect(refused.status).toBe(403);
    expect(refused.head!['access-control-allow-origin']).toBeUndefined();
    expect(new Cors([]).headers(req('http://localhost:3000'))).toEqual({});
  });

  it('allows the headers a browser SDK asks for (the openai helpers add their own), well-formed only', () => {
    const allowed = allowedHeaders('Authorization, X-Stainless-Helper-Method, bad header, x\r\ny');
    expect(allowed.split(', ')).toEqual(
      expect.arrayContaining(['authorization', 'x-stainless-helper-method']),
    );
    expect(allowed).not.toContain('bad header');
    expect(allowed).not.toContain('\r');
    expect(allowedHeaders(undefined)).toContain('content-type');
  });
});
