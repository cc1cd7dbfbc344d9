import { describe, expect, it } from 'vitest';
import { hang, wrapText } from './wrap.js';

/** An empty bold span: makes a line styled (wrapped by wrap-ansi), the same text. */
const BOLD = '\u001b[1m\u001b[22m';

describe('wrapText', () => {
  it('wraps words to the width, cuts a longer word, keeps line breaks and counts wide characters as two', () => {
    expect(wrapText('one two three four', 9)).toBe('one two\nthree\nfour');
    expect(wrapText('abcdefghij', 4)).toBe('abcd\nefgh\nij');
    expect(wrapText('a\rb\nc', 10)).toBe('a\nb\nc');
    expect(wrapText('日本語 日本語', 6)).toBe('日本語\n日本語');
    expect(wrapText('ab  cd', 10)).toBe('ab  cd');
    expect(wrapText('  lead and trail  ', 40)).toBe('lead and trail');
  });

  it('wraps plain text as it wraps styled text', () => {
    // words of 1 to 31 letters, some two spaces apart
    const words = Array.from({ length: 80 }, (_, i) =>
      'abcdefghijklmnopq'.repeat(2).slice(0, 1 + ((i * 7) % 31)),
    )
      .map((word, i) => (i % 5 ? word : ` ${word}`))
      .join(' ');
    for (const w of [1, 2, 3, 4, 5, 6, 7, 9, 16, 17, 18, 23, 40]) {
      const styled = wrapText(`${BOLD}${words}`, w).split(BOLD).join('');
      expect(wrapText(words, w), `width ${w}`).toBe(styled);
    }
  });
});

describe('hang', () => {
  it('puts the first prefix before the first line and the other before the rest, empty lines kept empty', () => {
    expect(hang(['a', '', 'b'], '* ', '  ')).toBe('* a\n\n  b');
  });
});
