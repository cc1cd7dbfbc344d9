import { describe, expect, it } from 'vitest';
import { EMPTY_SCAN, scanReply, type ReplyScan } from './reply-parts.js';

/** The cut after streaming `text` in chunks of `size` characters. */
function cutAfter(text: string, size: number): number {
  let scan: ReplyScan = EMPTY_SCAN;
  for (let i = size; i < text.length + size; i += size) scan = scanReply(scan, text.slice(0, i));
  return scan.cut;
}

describe('scanReply', () => {
  it('cuts before a block that starts in column 0 after a blank line, whatever the chunking', () => {
    const text = 'First paragraph\nstill first.\n\nSecond one\n\n# A heading';
    for (const size of [1, 2, 3, 7, 100]) {
      expect(text.slice(0, cutAfter(text, size))).toBe('First paragraph\nstill first.\n\nSecond one\n\n');
    }
  });

  it('does not cut before the first character of the next block is there', () => {
    expect(cutAfter('One\n\n', 1)).toBe(0);
    expect(cutAfter('One\n\n\n', 2)).toBe(0);
    expect(cutAfter('One\n\nT', 1)).toBe(5);
  });

  it('never cuts inside fenced code, and cuts after it', () => {
    const text = 'Intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter';
    expect(text.slice(cutAfter(text, 3))).toBe('After');
    const open = 'Intro\n\n~~~~\ncode\n\nmore code\n~~~\n\nstill code';
    expect(open.slice(cutAfter(open, 4))).toBe('~~~~\ncode\n\nmore code\n~~~\n\nstill code');
  });

  it('keeps indented lines after a blank line with the block before them (list items, nested code)', () => {
    const text = '1. Step one\n\n    npm ci\n\n   More about step one\n\n2. Step two';
    expect(text.slice(cutAfter(text, 5))).toBe('2. Step two');
    expect(cutAfter('- a\n\n  continued', 3)).toBe(0);
    expect(cutAfter('- a\n\n\tcontinued', 3)).toBe(0);
    // one space is not enough to continue a list item: a new paragraph
    expect(cutAfter('Para one\n\n para two', 3)).toBe('Para one\n\n'.length);
  });

  it('makes no empty part out of leading blank lines', () => {
    expect(cutAfter('\n\nHello', 1)).toBe(0);
    expect(cutAfter('\n\nHello\n\nWorld', 1)).toBe('\n\nHello\n\n'.length);
  });

  it('returns the same scan when nothing new is there', () => {
    const s = scanReply(EMPTY_SCAN, 'abc\n');
    expect(scanReply(s, 'abc\n')).toBe(s);
  });
});
