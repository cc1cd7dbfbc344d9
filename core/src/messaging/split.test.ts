import { describe, expect, it } from 'vitest';
import { splitMessage } from './split.js';

describe('splitMessage', () => {
  it.each<[string, string, number, string[]]>([
    ['short', 'hello', 10, ['hello']],
    ['no limit', 'x'.repeat(50), 0, ['x'.repeat(50)]],
    ['blank', '   ', 10, []],
    ['at spaces', 'aaaa bbbb cccc', 9, ['aaaa bbbb', 'cccc']],
    ['prefers paragraphs', 'aaaa\n\nbbbb cc', 10, ['aaaa', 'bbbb cc']],
    ['hard cut of a long word', 'abcdefghij', 4, ['abcd', 'efgh', 'ij']],
  ])('%s', (_n, text, max, expected) => expect(splitMessage(text, max)).toEqual(expected));

  it('every chunk fits and nothing but whitespace is lost', () => {
    const text = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const chunks = splitMessage(text, 50);
    expect(chunks.every((c) => c.length <= 50)).toBe(true);
    expect(chunks.join(' ')).toBe(text);
  });

  it('keeps surrogate pairs whole', () => {
    const chunks = splitMessage('😀'.repeat(10), 5);
    for (const c of chunks) expect(c).toMatch(/^(😀)+$/);
  });
});
