import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storedReplayGuard } from '@hermes/core';
import { SessionDB } from '@hermes/core/state';
import {
  MAX_SKEW_S,
  sign,
  signedHeaders,
  SignatureVerifier,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
} from './signature.js';

const SECRET = 'shared-secret-0123456789';
const T = Date.parse('2026-05-01T00:00:00Z');
const body = Buffer.from('{"text":"hi"}');

describe('webhook signatures (HMAC-SHA256 over "<ts>.<body>")', () => {
  it('a known vector', () => {
    expect(sign('key', 1, 'body')).toBe(
      `sha256=${createHmac('sha256', 'key').update('1.body').digest('hex')}`,
    );
  });

  it.each<
    [
      string,
      (h: Record<string, string>) => [string | undefined, string | undefined, Buffer],
      number,
      true | string,
    ]
  >([
    ['valid', (h) => [h[TIMESTAMP_HEADER], h[SIGNATURE_HEADER], body], 0, true],
    ['missing signature', (h) => [h[TIMESTAMP_HEADER], undefined, body], 0, 'missing'],
    ['malformed timestamp', (h) => ['12a', h[SIGNATURE_HEADER], body], 0, 'bad_timestamp'],
    [
      'tampered body',
      (h) => [h[TIMESTAMP_HEADER], h[SIGNATURE_HEADER], Buffer.from('{"text":"rm"}')],
      0,
      'bad_signature',
    ],
    [
      'other secret',
      () => [String(T / 1000), sign('another-secret-xxxxxxx', T / 1000, body), body],
      0,
      'bad_signature',
    ],
    [
      'timestamp swapped',
      (h) => [String(Number(h[TIMESTAMP_HEADER]) + 1), h[SIGNATURE_HEADER], body],
      0,
      'bad_signature',
    ],
    ['too old', (h) => [h[TIMESTAMP_HEADER], h[SIGNATURE_HEADER], body], (MAX_SKEW_S + 1) * 1000, 'stale'],
    [
      'from the future',
      (h) => [h[TIMESTAMP_HEADER], h[SIGNATURE_HEADER], body],
      -(MAX_SKEW_S + 1) * 1000,
      'stale',
    ],
  ])('%s', (_n, pick, skewMs, expected) => {
    const headers = signedHeaders(SECRET, body.toString(), T);
    const v = new SignatureVerifier(SECRET, () => T + skewMs);
    expect(v.verify(...pick(headers))).toBe(expected);
  });

  it('refuses a replay of an accepted request', () => {
    const h = signedHeaders(SECRET, body.toString(), T);
    const v = new SignatureVerifier(SECRET, () => T);
    expect(v.verify(h[TIMESTAMP_HEADER], h[SIGNATURE_HEADER], body)).toBe(true);
    expect(v.verify(h[TIMESTAMP_HEADER], h[SIGNATURE_HEADER], body)).toBe('replayed');
  });

  it('refuses a replay whose signature header is padded (spaces, NBSP) as the same request', () => {
    const h = signedHeaders(SECRET, body.toString(), T);
    const v = new SignatureVerifier(SECRET, () => T);
    expect(v.verify(h[TIMESTAMP_HEADER], h[SIGNATURE_HEADER], body)).toBe(true);
    for (const padded of [
      `${h[SIGNATURE_HEADER]}\u00a0`,
      ` ${h[SIGNATURE_HEADER]}`,
      `${h[SIGNATURE_HEADER]}\u00a0\u00a0`,
    ]) {
      expect(v.verify(h[TIMESTAMP_HEADER], padded, body), JSON.stringify(padded)).toBe('replayed');
    }
  });
});

describe('the replay window kept in state.db', () => {
  it('refuses after a restart a request accepted before it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-webhook-replay-'));
    const file = join(dir, 'state.db');
    const h = signedHeaders(SECRET, body.toString(), T);
    const db1 = SessionDB.open(file, { warn: () => {} });
    const before = new SignatureVerifier(SECRET, () => T, storedReplayGuard(db1.platforms, 'webhook'));
    expect(before.verify(h[TIMESTAMP_HEADER], h[SIGNATURE_HEADER], body)).toBe(true);
    db1.close();
    // a new process: new verifier, new connection, the same file
    const db2 = SessionDB.open(file, { warn: () => {} });
    try {
      const after = new SignatureVerifier(
        SECRET,
        () => T + 1_000,
        storedReplayGuard(db2.platforms, 'webhook'),
      );
      expect(after.verify(h[TIMESTAMP_HEADER], h[SIGNATURE_HEADER], body)).toBe('replayed');
      const fresh = signedHeaders(SECRET, body.toString(), T + 1_000);
      expect(after.verify(fresh[TIMESTAMP_HEADER], fresh[SIGNATURE_HEADER], body)).toBe(true);
    } finally {
      db2.close();
    }
  });
});
