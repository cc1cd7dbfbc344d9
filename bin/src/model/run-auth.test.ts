// What `hermes auth list` shows of a key: never the key.
import { describe, expect, it } from 'vitest';
import { maskKey } from './run-auth.js';

describe('maskKey', () => {
  it('shows the last 4 characters of a long key only, nothing of a short one', () => {
    expect(maskKey('sk-or-v1-0123456789abcdef')).toBe('••••cdef');
    expect(maskKey('short-key-123')).toBe('••••');
  });
});
