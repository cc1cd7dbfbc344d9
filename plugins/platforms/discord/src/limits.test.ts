import { describe, expect, it } from 'vitest';
import { fit, nonceOf } from './limits.js';

describe('Discord limits', () => {
  it('fit: short text unchanged; long text cut to the limit with its last line kept', () => {
    expect(fit('short')).toBe('short');
    const text = `${'a'.repeat(3000)}\nReply /approve, /deny.`;
    const cut = fit(text);
    expect(cut).toHaveLength(2000);
    expect(cut.endsWith('…\nReply /approve, /deny.')).toBe(true);
    expect(fit('b'.repeat(2500))).toHaveLength(2000);
  });

  it('nonces: a delivery id longer than 25 characters is hashed to 25, the same every time', () => {
    expect(nonceOf('in-0123456789ab#0')).toBe('in-0123456789ab#0');
    const long = nonceOf('in-0123456789ab#0-and-a-much-longer-suffix');
    expect(long).toHaveLength(25);
    expect(nonceOf('in-0123456789ab#0-and-a-much-longer-suffix')).toBe(long);
    expect(nonceOf('in-0123456789ab#1-and-a-much-longer-suffix')).not.toBe(long);
  });
});
