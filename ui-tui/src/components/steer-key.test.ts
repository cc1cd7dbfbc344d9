import { describe, expect, it } from 'vitest';
import { isSteerKey } from './steer-key.js';

describe('isSteerKey', () => {
  it('is Ctrl+S only', () => {
    expect(isSteerKey('s', { ctrl: true, meta: false })).toBe(true);
    expect(isSteerKey('s', { ctrl: false, meta: false })).toBe(false);
    expect(isSteerKey('s', { ctrl: true, meta: true })).toBe(false);
    expect(isSteerKey('a', { ctrl: true, meta: false })).toBe(false);
  });
});
