/**
 * Who may open a WebSocket to the daemon: the upgrade
 * must carry `Authorization: Bearer <token>` (the token from the discovery file, compared in
 * constant time), and a browser `Origin`, when present, must be loopback.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** Outcome of checking an upgrade request. */
export type UpgradeVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

const LOOPBACK_ORIGIN_RE = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

/**
 * True for an `Origin` that a page served from this machine's loopback sends:
 * `http://127.0.0.1[:port]`, `http://localhost[:port]`, `http://[::1][:port]`.
 */
export function isLoopbackOrigin(origin: string): boolean {
  return LOOPBACK_ORIGIN_RE.test(origin.trim());
}

/**
 * Compares two secrets in time independent of where they differ and of their lengths: both are
 * hashed to 32 bytes first, so `timingSafeEqual` always compares equal-length buffers.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/**
 * Checks the headers of an upgrade request.
 * @returns 403 for a non-loopback `Origin` (checked first: a browser page never gets further),
 *   401 for a missing, malformed or wrong bearer token, else ok.
 */
export function checkUpgrade(headers: IncomingHttpHeaders, token: string): UpgradeVerdict {
  const origin = headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    return { ok: false, status: 403, message: 'Origin not allowed: only loopback origins may connect' };
  }
  const auth = headers.authorization;
  if (!auth) return { ok: false, status: 401, message: 'missing Authorization: Bearer <token>' };
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m || !constantTimeEqual(m[1]!, token)) {
    return { ok: false, status: 401, message: 'wrong bearer token' };
  }
  return { ok: true };
}
