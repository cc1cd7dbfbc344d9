/** Session ids: `YYYYMMDD_HHMMSS_<6 hex>` (as in the original hermes-agent). */
import { randomBytes } from 'node:crypto';

/** The canonical id format: local date and time of creation, then 6 random lowercase hex digits. */
export const SESSION_ID_PATTERN = /^\d{8}_\d{6}_[0-9a-f]{6}$/;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * A new session id for the moment `at` (default now), in local time so it reads like the clock the
 * user saw, e.g. `20261129_143005_9f3a1c`. 24 random bits make two ids of the same second differ
 * with probability 1 − 2⁻²⁴.
 */
export function newSessionId(at: Date = new Date()): string {
  const date = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `${date}_${time}_${randomBytes(3).toString('hex')}`;
}

/** True when `id` has the canonical `YYYYMMDD_HHMMSS_<6 hex>` form. */
export function isCanonicalSessionId(id: string): boolean {
  return SESSION_ID_PATTERN.test(id);
}

/**
 * Checks an id supplied by a caller (`createSession({id})`): 1–128 characters of letters, digits,
 * `_`, `-`, `.`, `:`. Callers other than tests should let `newSessionId` choose.
 * @returns an error text naming the problem, or null when the id is acceptable.
 */
export function sessionIdProblem(id: string): string | null {
  if (typeof id !== 'string' || id.length === 0) return 'session id is empty';
  if (id.length > 128) return `session id is ${id.length} characters long (at most 128)`;
  if (!/^[A-Za-z0-9_.:-]+$/.test(id)) return `session id "${id}" may only contain letters, digits, _ - . :`;
  return null;
}
