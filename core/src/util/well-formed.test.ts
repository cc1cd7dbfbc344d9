import { describe, expect, it } from 'vitest';
import { wellFormedDeep, wellFormedText } from './well-formed.js';

describe('wellFormedText', () => {
  it('replaces each lone surrogate by U+FFFD and keeps pairs', () => {
    expect(wellFormedText('a\ud83d b\ude00 😀')).toBe('a\ufffd b\ufffd 😀');
    expect(wellFormedText('\ude00\ud83d')).toBe('\ufffd\ufffd');
    const ok = 'plain 😀';
    expect(wellFormedText(ok)).toBe(ok);
  });
});

describe('wellFormedDeep', () => {
  it('fixes strings and keys in arrays and plain objects, copying only what changed', () => {
    const clean = { a: ['x', { b: 'y' }], n: 1 };
    expect(wellFormedDeep(clean)).toBe(clean);
    const buf = Buffer.from('z');
    const dirty = { keep: clean, list: ['ok', 'bad\ud800'], ['k\udc00']: 2, buf };
    const out = wellFormedDeep(dirty);
    expect(out).toEqual({ keep: clean, list: ['ok', 'bad\ufffd'], ['k\ufffd']: 2, buf });
    expect(out.keep).toBe(clean);
    expect(out.buf).toBe(buf);
    expect(dirty.list[1]).toBe('bad\ud800'); // the input is not changed
  });
});
