// Credential pool: where keys come from, fill-first selection, rotation and cooldowns on an
// injected clock.
import { describe, expect, it } from 'vitest';
import { AUTH_COOLDOWN_MS, collectKeys, CredentialPool, RATE_LIMIT_COOLDOWN_MS } from './credential-pool.js';

describe('collectKeys', () => {
  it('reads NAME, then NAME_n in numeric order, splits comma lists and drops duplicates', () => {
    const secrets = { OR_KEY: 'a, b', OR_KEY_10: 'e', OR_KEY_2: 'c', OR_KEY_X: 'ignored', OTHER_2: 'no' };
    const env = { OR_KEY_3: 'd', OR_KEY_4: 'a', OR_KEY_5: '  ' };
    expect(collectKeys('OR_KEY', secrets, env)).toEqual([
      { label: 'OR_KEY[1]', value: 'a' },
      { label: 'OR_KEY[2]', value: 'b' },
      { label: 'OR_KEY_2', value: 'c' },
      { label: 'OR_KEY_3', value: 'd' },
      { label: 'OR_KEY_10', value: 'e' },
    ]);
  });

  it("prefers the home's secrets over the process environment, and finds env-only keys", () => {
    expect(collectKeys('K', { K: 'from-home' }, { K: 'from-env' })).toEqual([
      { label: 'K', value: 'from-home' },
    ]);
    expect(collectKeys('K', {}, { K: 'from-env' })).toEqual([{ label: 'K', value: 'from-env' }]);
    expect(collectKeys('K', {}, {})).toEqual([]);
  });
});

describe('CredentialPool', () => {
  const keys = [
    { label: 'K', value: 'k1' },
    { label: 'K_2', value: 'k2' },
  ];

  it('uses the first key until it is exhausted, then the next; the first returns after 1 hour', () => {
    let now = 1_000_000;
    const pool = new CredentialPool('openrouter', keys, { now: () => now });
    expect(pool.current()?.value).toBe('k1');
    expect(pool.markExhausted(keys[0]!, 'rate_limit')?.value).toBe('k2');
    expect(pool.current()?.value).toBe('k2');
    expect(pool.describe()).toEqual([
      { label: 'K', coolingUntil: 1_000_000 + RATE_LIMIT_COOLDOWN_MS },
      { label: 'K_2' },
    ]);
    now += RATE_LIMIT_COOLDOWN_MS - 1;
    expect(pool.current()?.value).toBe('k2');
    now += 1;
    expect(pool.current()?.value).toBe('k1');
    expect(pool.describe()).toEqual([{ label: 'K' }, { label: 'K_2' }]);
  });

  it('benches a refused key for 5 minutes only', () => {
    let now = 0;
    const pool = new CredentialPool('openai', keys, { now: () => now });
    pool.markExhausted(keys[0]!, 'auth');
    now = AUTH_COOLDOWN_MS - 1;
    expect(pool.current()?.value).toBe('k2');
    now = AUTH_COOLDOWN_MS;
    expect(pool.current()?.value).toBe('k1');
  });

  it('when every key cools down, offers none for rotation but still the one that recovers first', () => {
    let now = 0;
    const pool = new CredentialPool('x', keys, { now: () => now });
    pool.markExhausted(keys[0]!, 'rate_limit');
    now = 10;
    expect(pool.markExhausted(keys[1]!, 'auth')).toBeUndefined();
    expect(pool.available()).toEqual([]);
    expect(pool.current()?.value).toBe('k2'); // its 5-minute bench ends before k1's hour
    expect(new CredentialPool('x', []).current()).toBeUndefined();
  });
});
