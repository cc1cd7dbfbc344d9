/**
 * DM pairing: a stranger who writes to the bot gets a one-time code; the owner
 * approves it with `hermes pairing approve CODE`, which adds the user to the platform's approved
 * list. Security parameters (OWASP, NIST SP 800-63-4):
 *
 * - 8-character codes from a 32-letter alphabet without 0/O/1/I, drawn with `crypto.randomInt`;
 * - only a salted SHA-256 of a code is stored, compared in constant time; codes are never logged;
 * - a code expires after 1 h; at most 3 codes pending per platform;
 * - one code per user per 10 minutes;
 * - 5 failed approvals in a row lock the platform's approvals (and new codes) for 1 h;
 * - every file is written atomically with mode 0600.
 *
 * Files in `<home>/pairing/`: `<platform>-pending.json`, `<platform>-approved.json`,
 * `_rate_limits.json`. Nothing is cached: the daemon and the CLI share the files.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { PLATFORM_NAME_RE } from './delivery-target.js';

/** The code alphabet: A–Z and 2–9 without the look-alikes 0, O, 1, I (32 letters). */
export const PAIRING_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Characters per code. */
export const PAIRING_CODE_LENGTH = 8;
/** A code is valid this long, ms (1 h). */
export const PAIRING_CODE_TTL_MS = 60 * 60 * 1000;
/** One code per user per this long, ms (10 min). */
export const PAIRING_RATE_LIMIT_MS = 10 * 60 * 1000;
/** Lockout after too many failures, ms (1 h). */
export const PAIRING_LOCKOUT_MS = 60 * 60 * 1000;
/** Codes pending at once per platform. */
export const PAIRING_MAX_PENDING = 3;
/** Consecutive failed approvals that lock a platform. */
export const PAIRING_MAX_FAILURES = 5;

interface PendingEntry {
  hash: string;
  salt: string;
  user_id: string;
  user_name: string;
  /** Epoch ms. */
  created_at: number;
}

interface ApprovedEntry {
  user_name: string;
  /** Epoch ms. */
  approved_at: number;
}

/** Why no code was issued. */
export type PairingRefusal = 'rate_limited' | 'too_many_pending' | 'locked_out';

/** Result of `generateCode`: the code (to send to the user, never to a log) or why not. */
export type PairingCodeResult = { ok: true; code: string } | { ok: false; reason: PairingRefusal };

/** Result of `approveCode`. */
export type PairingApproval =
  | { ok: true; platform: string; userId: string; userName: string }
  | { ok: false; reason: 'invalid' | 'locked_out' };

/** A pending request as listed (the code itself is never readable). */
export interface PendingPairing {
  platform: string;
  /** Random id of the request (16 hex). */
  requestId: string;
  userId: string;
  userName: string;
  /** Epoch ms the code was issued. */
  createdAt: number;
  /** Epoch ms it expires. */
  expiresAt: number;
}

/** An approved user as listed. */
export interface ApprovedUser {
  platform: string;
  userId: string;
  userName: string;
  /** Epoch ms. */
  approvedAt: number;
}

/** Options of the store. */
export interface PairingStoreOptions {
  /** Clock, epoch ms (tests). */
  now?: () => number;
  /** Receives operational lines (lockouts). Never receives a code. */
  log?: (line: string) => void;
}

function checkPlatform(platform: string): string {
  const p = String(platform ?? '')
    .trim()
    .toLowerCase();
  if (!PLATFORM_NAME_RE.test(p)) throw new Error(`invalid platform name "${platform}"`);
  return p;
}

/** Upper-cases a typed code and drops spaces and dashes (`abcd-efgh` → `ABCDEFGH`). */
export function normalizePairingCode(code: string): string {
  return String(code ?? '')
    .toUpperCase()
    .replace(/[\s-]+/g, '');
}

function hashCode(code: string, salt: Buffer): Buffer {
  return createHash('sha256').update(salt).update(code, 'utf8').digest();
}

/** Pairing codes and approved users of one home. */
export class PairingStore {
  private readonly now: () => number;
  private readonly log: (line: string) => void;

  /** @param dir usually `home.pairingDir`; created on first write. */
  constructor(
    readonly dir: string,
    opts: PairingStoreOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (() => undefined);
  }

  // ── files ────────────────────────────────────────────────────────────────────────────────

  private file(name: string): string {
    return join(this.dir, name);
  }

  private read<T>(name: string): Record<string, T> {
    const file = this.file(name);
    if (!existsSync(file)) return {};
    try {
      chmodSync(file, 0o600);
    } catch {
      /* not ours: still try to read */
    }
    try {
      const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
      return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, T>) : {};
    } catch {
      return {}; // a damaged file counts as empty; the next write replaces it
    }
  }

  private write(name: string, data: object): void {
    writeFileAtomic(this.file(name), `${JSON.stringify(data, null, 2)}\n`, 0o600);
  }

  private pending(platform: string): Record<string, PendingEntry> {
    const all = this.read<PendingEntry>(`${platform}-pending.json`);
    const now = this.now();
    const live: Record<string, PendingEntry> = {};
    let dropped = false;
    for (const [id, e] of Object.entries(all)) {
      const valid =
        e && typeof e.hash === 'string' && typeof e.salt === 'string' && typeof e.created_at === 'number';
      if (valid && now - e.created_at <= PAIRING_CODE_TTL_MS) live[id] = e;
      else dropped = true;
    }
    if (dropped) this.write(`${platform}-pending.json`, live);
    return live;
  }

  private limits(): Record<string, number> {
    return this.read<number>('_rate_limits.json');
  }

  private platformsWith(suffix: 'pending' | 'approved'): string[] {
    if (!existsSync(this.dir)) return [];
    const tail = `-${suffix}.json`;
    return readdirSync(this.dir)
      .filter((f) => f.endsWith(tail) && !f.startsWith('_'))
      .map((f) => f.slice(0, -tail.length))
      .filter((p) => PLATFORM_NAME_RE.test(p))
      .sort();
  }

  // ── approved users ───────────────────────────────────────────────────────────────────────

  /** True when the user is approved on the platform. */
  isApproved(platform: string, userId: string): boolean {
    const p = checkPlatform(platform);
    const id = String(userId ?? '').trim();
    return id !== '' && Object.hasOwn(this.read<ApprovedEntry>(`${p}-approved.json`), id);
  }

  /** Approved users, of one platform or all. */
  listApproved(platform?: string): ApprovedUser[] {
    const platforms = platform ? [checkPlatform(platform)] : this.platformsWith('approved');
    return platforms.flatMap((p) =>
      Object.entries(this.read<ApprovedEntry>(`${p}-approved.json`)).map(([userId, e]) => ({
        platform: p,
        userId,
        userName: e?.user_name ?? '',
        approvedAt: e?.approved_at ?? 0,
      })),
    );
  }

  /** Approves a user directly (an owner's decision, e.g. from the CLI). */
  approveUser(platform: string, userId: string, userName = ''): void {
    const p = checkPlatform(platform);
    const approved = this.read<ApprovedEntry>(`${p}-approved.json`);
    approved[String(userId).trim()] = { user_name: userName, approved_at: this.now() };
    this.write(`${p}-approved.json`, approved);
  }

  /** Removes a user from the approved list. @returns whether the user was approved. */
  revoke(platform: string, userId: string): boolean {
    const p = checkPlatform(platform);
    const approved = this.read<ApprovedEntry>(`${p}-approved.json`);
    const id = String(userId).trim();
    if (!Object.hasOwn(approved, id)) return false;
    delete approved[id];
    this.write(`${p}-approved.json`, approved);
    return true;
  }

  // ── codes ────────────────────────────────────────────────────────────────────────────────

  /** True while the platform is locked out after too many failed approvals. */
  isLockedOut(platform: string): boolean {
    return this.now() < (this.limits()[`_lockout:${checkPlatform(platform)}`] ?? 0);
  }

  /**
   * Issues a code for a user who is not approved yet.
   * @returns the code, or why none was issued (rate limit per user, too many pending codes on the
   *   platform, lockout). The caller shows the code to that user only.
   */
  generateCode(platform: string, userId: string, userName = ''): PairingCodeResult {
    const p = checkPlatform(platform);
    const id = String(userId ?? '').trim();
    if (!id) throw new Error('generateCode needs a user id');
    const now = this.now();
    if (this.isLockedOut(p)) return { ok: false, reason: 'locked_out' };
    const limits = this.limits();
    if (now - (limits[`${p}:${id}`] ?? -Infinity) < PAIRING_RATE_LIMIT_MS)
      return { ok: false, reason: 'rate_limited' };
    const pending = this.pending(p);
    if (Object.keys(pending).length >= PAIRING_MAX_PENDING) return { ok: false, reason: 'too_many_pending' };
    let code = '';
    for (let i = 0; i < PAIRING_CODE_LENGTH; i++)
      code += PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)];
    const salt = randomBytes(16);
    pending[randomBytes(8).toString('hex')] = {
      hash: hashCode(code, salt).toString('hex'),
      salt: salt.toString('hex'),
      user_id: id,
      user_name: userName,
      created_at: now,
    };
    this.write(`${p}-pending.json`, pending);
    limits[`${p}:${id}`] = now;
    this.write('_rate_limits.json', limits);
    return { ok: true, code };
  }

  /**
   * Approves a code: its user joins the platform's approved list and the code is consumed.
   * Without `platform`, every platform with pending codes is tried. A wrong code counts as one
   * failure on each platform it was tried against; the 5th in a row locks that platform for 1 h,
   * during which even a valid code is refused.
   */
  approveCode(code: string, platform?: string): PairingApproval {
    const typed = normalizePairingCode(code);
    const platforms = platform ? [checkPlatform(platform)] : this.platformsWith('pending');
    const open = platforms.filter((p) => !this.isLockedOut(p));
    if (open.length === 0 && platforms.length > 0) return { ok: false, reason: 'locked_out' };
    for (const p of open) {
      const pending = this.pending(p);
      for (const [requestId, e] of Object.entries(pending)) {
        const expected = Buffer.from(e.hash, 'hex');
        const actual = hashCode(typed, Buffer.from(e.salt, 'hex'));
        if (expected.length === actual.length && timingSafeEqual(expected, actual)) {
          delete pending[requestId];
          this.write(`${p}-pending.json`, pending);
          const limits = this.limits();
          delete limits[`_failures:${p}`];
          this.write('_rate_limits.json', limits);
          this.approveUser(p, e.user_id, e.user_name);
          return { ok: true, platform: p, userId: e.user_id, userName: e.user_name };
        }
      }
    }
    for (const p of open) this.recordFailure(p);
    return { ok: false, reason: 'invalid' };
  }

  private recordFailure(platform: string): void {
    const limits = this.limits();
    const key = `_failures:${platform}`;
    const fails = (limits[key] ?? 0) + 1;
    if (fails >= PAIRING_MAX_FAILURES) {
      limits[`_lockout:${platform}`] = this.now() + PAIRING_LOCKOUT_MS;
      delete limits[key];
      this.log(
        `pairing: ${platform} locked for ${PAIRING_LOCKOUT_MS / 60_000} min after ${PAIRING_MAX_FAILURES} failed approvals`,
      );
    } else {
      limits[key] = fails;
    }
    this.write('_rate_limits.json', limits);
  }

  /** Pending requests (without codes), oldest first. */
  listPending(platform?: string): PendingPairing[] {
    const platforms = platform ? [checkPlatform(platform)] : this.platformsWith('pending');
    return platforms
      .flatMap((p) =>
        Object.entries(this.pending(p)).map(([requestId, e]) => ({
          platform: p,
          requestId,
          userId: e.user_id,
          userName: e.user_name ?? '',
          createdAt: e.created_at,
          expiresAt: e.created_at + PAIRING_CODE_TTL_MS,
        })),
      )
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Drops pending codes (of one platform or all). @returns how many. */
  clearPending(platform?: string): number {
    const platforms = platform ? [checkPlatform(platform)] : this.platformsWith('pending');
    let n = 0;
    for (const p of platforms) {
      n += Object.keys(this.pending(p)).length;
      this.write(`${p}-pending.json`, {});
    }
    return n;
  }
}
