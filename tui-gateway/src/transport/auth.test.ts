import { describe, expect, it } from 'vitest';
import { checkUpgrade, constantTimeEqual, isLoopbackOrigin } from './auth.js';

const TOKEN = 'a'.repeat(64);

describe('upgrade auth', () => {
  it('accepts loopback origins only', () => {
    for (const o of [
      'http://127.0.0.1',
      'http://127.0.0.1:5173',
      'http://localhost:3000',
      'http://[::1]:80',
      'HTTP://LOCALHOST',
    ]) {
      expect(isLoopbackOrigin(o), o).toBe(true);
    }
    for (const o of [
      'https://evil.example',
      'http://127.0.0.1.evil.example',
      'http://localhost.evil:80',
      'null',
      'http://10.0.0.1',
      'file://',
    ]) {
      expect(isLoopbackOrigin(o), o).toBe(false);
    }
  });

  it('compares tokens of any length without throwing', () => {
    expect(constantTimeEqual(TOKEN, TOKEN)).toBe(true);
    expect(constantTimeEqual(TOKEN, TOKEN.slice(1))).toBe(false);
    expect(constantTimeEqual(TOKEN, '')).toBe(false);
  });

  it('answers 401 for a missing or wrong token and 403 for a foreign origin', () => {
    expect(checkUpgrade({}, TOKEN)).toMatchObject({ ok: false, status: 401 });
    expect(checkUpgrade({ authorization: 'Basic xyz' }, TOKEN)).toMatchObject({ ok: false, status: 401 });
    expect(checkUpgrade({ authorization: `Bearer ${TOKEN}x` }, TOKEN)).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(checkUpgrade({ authorization: `Bearer ${TOKEN}` }, TOKEN)).toEqual({ ok: true });
    expect(checkUpgrade({ authorization: `bearer ${TOKEN}`, origin: 'http://localhost:1' }, TOKEN)).toEqual({
      ok: true,
    });
    expect(
      checkUpgrade({ authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' }, TOKEN),
    ).toMatchObject({
      ok: false,
      status: 403,
    });
  });
});
