import { describe, expect, it } from 'vitest';
import { hang, wrapText } from './wrap.js';

describe('wrapText', () => {
  it('wraps words to the width, cuts a longer word, keeps line breaks and counts wide characters as two', () => {
    expect(wrapText('one two three four', 9)).toBe('one two\nthree\nfour');
    expect(wrapText('abcdefghij', 4)).toBe('abcd\nefgh\nij');
    expect(wrapText('a\rb\nc', 10)).toBe('a\nb\nc');
    expect(wrapText('日本語 日本語', 6)).toBe('日本語\n日本語');
  });
});

describe('hang', () => {
  it('puts the first prefix before the first line and the other before the rest, empty lines kept empty', () => {
    expect(hang(['a', '', 'b'], '* ', '  ')).toBe('* a\n\n  b');
  });
});
