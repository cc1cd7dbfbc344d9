import { describe, expect, it } from 'vitest';
import { contentText, imagePartCount } from './content.js';

describe('contentText', () => {
  it('reads a string, text parts, and image parts as [image]', () => {
    expect(contentText('plain')).toBe('plain');
    expect(contentText(null)).toBe('');
    const parts = [
      { type: 'text' as const, text: 'look: ' },
      { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,AAAA' } },
    ];
    expect(contentText(parts)).toBe('look: [image]');
    expect(imagePartCount(parts)).toBe(1);
    expect(imagePartCount('x')).toBe(0);
  });
});
