import { describe, expect, it } from 'vitest';
import { sniffImageMime } from './sniff.js';
import { TINY_GIF, TINY_JPEG, TINY_PNG, TINY_WEBP } from './testing.js';

describe('sniffImageMime', () => {
  it('names png, jpeg, gif and webp by their magic bytes', () => {
    expect(sniffImageMime(TINY_PNG)).toBe('image/png');
    expect(sniffImageMime(TINY_JPEG)).toBe('image/jpeg');
    expect(sniffImageMime(TINY_GIF)).toBe('image/gif');
    expect(sniffImageMime(TINY_WEBP)).toBe('image/webp');
  });

  it('refuses text, a truncated header and an empty buffer', () => {
    expect(sniffImageMime(Buffer.from('hello, this is not an image'))).toBeUndefined();
    expect(sniffImageMime(TINY_PNG.subarray(0, 4))).toBeUndefined();
    expect(sniffImageMime(Buffer.alloc(0))).toBeUndefined();
    expect(sniffImageMime(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
  });
});
