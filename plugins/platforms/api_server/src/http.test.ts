/** OpenAI-shaped errors and CORS for configured origins only. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ApiError, Cors } from './http.js';

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
});
