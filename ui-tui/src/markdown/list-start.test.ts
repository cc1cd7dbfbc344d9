import { beforeAll, describe, expect, it } from 'vitest';
import { growReply, startReply } from '../state/reply-parts.js';
import { renumberList } from './list-start.js';
import { loadMarkdown, renderMarkdown } from './render.js';

/** The parts a reply is printed in while it streams (one character per delta), then its rest. */
function parts(text: string): string[] {
  let r = startReply();
  const out: string[] = [];
  for (const ch of text) {
    const g = growReply(r, ch);
    r = g.reply;
    if (g.part) out.push(g.part);
  }
  return [...out, r.text.slice(r.scan.cut)];
}

describe('renumberList', () => {
  it('numbers the items of the list from `start`, nothing nested or continued', () => {
    const out = '  1. one\n     more of one\n    1. nested\n    2. nested\n  4. two\n\n';
    expect(renumberList(out, 3, 2)).toBe(
      '  3. one\n     more of one\n    1. nested\n    2. nested\n  4. two\n\n',
    );
  });

  it('keeps continuation lines under their item when the number gets a digit longer', () => {
    expect(renumberList('  1. nine\n     next line\n  2. ten\n', 9, 2)).toBe(
      '  9. nine\n     next line\n  10. ten\n',
    );
    expect(renumberList('  1. ten\n     next line\n', 10, 2)).toBe('  10. ten\n      next line\n');
  });
});

describe('an ordered list in markdown', () => {
  beforeAll(async () => {
    await loadMarkdown();
  });

  it('starts at its first number', () => {
    expect(renderMarkdown('3. third\n4. fourth', 60)).toBe('  3. third\n  4. fourth');
  });

  it('counts only its own items, not those of a list nested in it', () => {
    expect(renderMarkdown('1. a\n   1. sub\n   2. sub2\n2. b', 60)).toBe(
      '  1. a\n    1. sub\n    2. sub2\n  2. b',
    );
  });

  it('keeps its numbers when printed in parts while the reply streams', () => {
    const text = Array.from({ length: 11 }, (_, i) => `${i + 1}. item ${i + 1}`).join('\n\n');
    const ps = parts(text);
    expect(ps).toHaveLength(11);
    expect(ps.map((p) => renderMarkdown(p, 60))).toEqual(
      Array.from({ length: 11 }, (_, i) => `  ${i + 1}. item ${i + 1}`),
    );
  });
});
