/**
 * Signing of webhook requests, both directions: `X-Hermes-Signature: sha256=<hex>` is
 * HMAC-SHA256 with the shared secret over `<timestamp>.<raw body>`, and `X-Hermes-Timestamp` is
 * the sender's clock in Unix seconds. A receiver refuses a bad signature, a timestamp more than
 * `MAX_SKEW_S` away from its clock, and a signature it has already accepted (replay).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { MemoryReplayGuard, type ReplayGuard } from '@hermes/core';

/** Header names. */
export const SIGNATURE_HEADER = 'x-hermes-signature';
export const TIMESTAMP_HEADER = 'x-hermes-timestamp';
/** Largest accepted clock difference, seconds. */
export const MAX_SKEW_S = 300;

/** `sha256=<hex>` for a body sent at `timestamp` (Unix seconds). */
export function sign(secret: string, timestamp: number, body: string | Buffer): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  return `sha256=${mac}`;
}

/** Headers that sign `body` now. */
export function signedHeaders(secret: string, body: string, now = Date.now()): Record<string, string> {
  const ts = Math.floor(now / 1000);
  return { [TIMESTAMP_HEADER]: String(ts), [SIGNATURE_HEADER]: sign(secret, ts, body) };
}

/** Why a request was refused. */
export type VerifyFailure = 'missing' | 'bad_timestamp' | 'stale' | 'bad_signature' | 'replayed';

/**
 * Verifies signatures and remembers accepted ones until their timestamp leaves the window
 * (replay protection). The daemon remembers them in state.db (a `ReplayGuard`), so a request
 * accepted before a restart is still refused after it.
 */
export class SignatureVerifier {
  private readonly guard: ReplayGuard;

  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
    guard?: ReplayGuard,
  ) {
    this.guard = guard ?? new MemoryReplayGuard(now);
  }

  /**
   * Checks one request.
   * @returns true, or the reason it is refused.
   */
  verify(
    timestampHeader: string | undefined,
    signatureHeader: string | undefined,
    body: Buffer,
  ): true | VerifyFailure {
    if (!timestampHeader || !signatureHeader) return 'missing';
    if (!/^\d{1,12}$/.test(timestampHeader)) return 'bad_timestamp';
    const ts = Number(timestampHeader);
    const nowS = Math.floor(this.now() / 1000);
    if (Math.abs(nowS - ts) > MAX_SKEW_S) return 'stale';
    const canonical = sign(this.secret, ts, body);
    const expected = Buffer.from(canonical);
    const given = Buffer.from(signatureHeader.trim());
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad_signature';
    // remembered by the signature it must equal, not the header as sent: a resent request with
    // padding around the header (spaces, NBSP) is the same request; kept until the timestamp
    // can no longer pass the skew check
    const until = (Math.max(ts, nowS) + MAX_SKEW_S + 1) * 1000;
    return this.guard.claim(canonical.slice('sha256='.length), until, this.now()) ? true : 'replayed';
  }
}
