import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PAIRING_ALPHABET,
  PAIRING_CODE_TTL_MS,
  PAIRING_LOCKOUT_MS,
  PAIRING_RATE_LIMIT_MS,
  PairingStore,
} from './pairing.js';

function store() {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-pairing-'));
  const clock = { t: Date.parse('2026-01-01T00:00:00Z') };
  const logs: string[] = [];
  const s = new PairingStore(dir, { now: () => clock.t, log: (l) => logs.push(l) });
  return { dir, clock, logs, s };
}
const code = (r: ReturnType<PairingStore['generateCode']>): string => {
  if (!r.ok) throw new Error(`no code: ${r.reason}`);
  return r.code;
};

describe('PairingStore', () => {
  it('issues 8-character codes from the 32-letter alphabet without 0/O/1/I', () => {
    expect(PAIRING_ALPHABET).toHaveLength(32);
    expect(PAIRING_ALPHABET).not.toMatch(/[01OI]/);
    const { s, clock } = store();
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) {
      clock.t += PAIRING_CODE_TTL_MS + 1; // expire the previous ones
      const c = code(s.generateCode('irc', `u${i}`));
      expect(c).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}$/);
      seen.add(c);
    }
    expect(seen.size).toBe(30);
  });

  it('stores no code in clear, files are 0600, and the code is never logged', () => {
    const { s, dir, logs } = store();
    const c = code(s.generateCode('irc', 'alice', 'Alice'));
    for (const f of readdirSync(dir)) {
      expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(dir, f), 'utf8')).not.toContain(c);
    }
    for (let i = 0; i < 5; i++) s.approveCode('WRONGCOD', 'irc');
    expect(logs.join('\n')).not.toContain(c);
    expect(s.listPending()).toHaveLength(1);
  });

  it('approves a valid code once, case-insensitively, and the user becomes approved', () => {
    const { s } = store();
    const c = code(s.generateCode('irc', 'alice', 'Alice'));
    expect(s.isApproved('irc', 'alice')).toBe(false);
    expect(s.approveCode(c.toLowerCase().replace(/^(....)/, '$1-'))).toEqual({
      ok: true,
      platform: 'irc',
      userId: 'alice',
      userName: 'Alice',
    });
    expect(s.isApproved('irc', 'alice')).toBe(true);
    expect(s.isApproved('telegram', 'alice')).toBe(false);
    expect(s.approveCode(c).ok).toBe(false); // consumed
    expect(s.listApproved()).toMatchObject([{ platform: 'irc', userId: 'alice', userName: 'Alice' }]);
    expect(s.revoke('irc', 'alice')).toBe(true);
    expect(s.revoke('irc', 'alice')).toBe(false);
    expect(s.isApproved('irc', 'alice')).toBe(false);
  });

  it('codes expire after 1 hour', () => {
    const { s, clock } = store();
    const c = code(s.generateCode('irc', 'alice'));
    clock.t += PAIRING_CODE_TTL_MS + 1;
    expect(s.listPending()).toEqual([]);
    expect(s.approveCode(c)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('limits: one request per user per 10 minutes, at most 3 pending per platform', () => {
    const { s, clock } = store();
    code(s.generateCode('irc', 'u1'));
    expect(s.generateCode('irc', 'u1')).toEqual({ ok: false, reason: 'rate_limited' });
    code(s.generateCode('irc', 'u2'));
    code(s.generateCode('irc', 'u3'));
    expect(s.generateCode('irc', 'u4')).toEqual({ ok: false, reason: 'too_many_pending' });
    expect(code(s.generateCode('telegram', 'u4'))).toHaveLength(8); // per platform
    clock.t += PAIRING_RATE_LIMIT_MS;
    expect(s.generateCode('irc', 'u1')).toEqual({ ok: false, reason: 'too_many_pending' });
    expect(s.listPending('irc').map((p) => p.userId)).toEqual(['u1', 'u2', 'u3']);
  });

  it('locks a platform for 1 hour after 5 failed approvals; even a valid code is refused', () => {
    const { s, clock, logs } = store();
    const c = code(s.generateCode('irc', 'alice'));
    for (let i = 0; i < 4; i++)
      expect(s.approveCode('AAAAAAAA', 'irc')).toEqual({ ok: false, reason: 'invalid' });
    expect(s.isLockedOut('irc')).toBe(false);
    expect(s.approveCode('AAAAAAAA', 'irc')).toEqual({ ok: false, reason: 'invalid' });
    expect(s.isLockedOut('irc')).toBe(true);
    expect(logs.some((l) => l.includes('locked'))).toBe(true);
    expect(s.approveCode(c, 'irc')).toEqual({ ok: false, reason: 'locked_out' });
    expect(s.approveCode(c)).toEqual({ ok: false, reason: 'locked_out' });
    expect(s.generateCode('irc', 'bob')).toEqual({ ok: false, reason: 'locked_out' });
    clock.t += PAIRING_LOCKOUT_MS - 2;
    expect(s.isLockedOut('irc')).toBe(true);
    clock.t += 2;
    expect(s.isLockedOut('irc')).toBe(false);
  });

  it('a success resets the failure streak', () => {
    const { s } = store();
    const c1 = code(s.generateCode('irc', 'a'));
    for (let i = 0; i < 4; i++) s.approveCode('AAAAAAAA', 'irc');
    expect(s.approveCode(c1).ok).toBe(true);
    code(s.generateCode('irc', 'b'));
    for (let i = 0; i < 4; i++) s.approveCode('AAAAAAAA', 'irc');
    expect(s.isLockedOut('irc')).toBe(false);
  });

  it('refuses platform names that could escape the folder', () => {
    const { s } = store();
    expect(() => s.generateCode('../x', 'u')).toThrow(/invalid platform/);
    expect(() => s.isApproved('a/b', 'u')).toThrow(/invalid platform/);
  });
});
