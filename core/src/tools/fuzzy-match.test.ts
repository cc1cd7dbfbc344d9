import { describe, expect, it } from 'vitest';
import {
  adaptReplacement,
  applySpans,
  diffSnippet,
  findMatches,
  lineIndexAt,
  lineStarts,
} from './fuzzy-match.js';

describe('findMatches', () => {
  it('prefers exact matches and finds non-overlapping ones', () => {
    expect(findMatches('aaaa', 'aa')).toEqual({
      strategy: 'exact',
      spans: [
        { start: 0, end: 2 },
        { start: 2, end: 4 },
      ],
    });
  });

  it('falls back to line-trimmed, then whitespace-normalized matching on whole lines', () => {
    const text = 'if x:\n\tdo(a,  b)\n\treturn\n';
    expect(findMatches(text, '    return')).toEqual({
      strategy: 'line-trimmed',
      spans: [{ start: 17, end: 24 }],
    });
    const r = findMatches(text, 'do(a, b)\nreturn\n');
    expect(r.strategy).toBe('whitespace-normalized');
    expect(text.slice(r.spans[0]!.start, r.spans[0]!.end)).toBe('\tdo(a,  b)\n\treturn');
  });

  it('finds nothing for an empty or blank needle', () => {
    expect(findMatches('abc', '')).toEqual({ strategy: null, spans: [] });
    expect(findMatches('abc\n\n', '\n  \n').spans).toEqual([]);
  });
});

describe('adaptReplacement', () => {
  it("moves the needle's indentation to the file's", () => {
    expect(adaptReplacement('  a\n    b\n\nc', '  a', '\t\ta')).toBe('\t\ta\n\t\t  b\n\nc');
  });
});

describe('diffSnippet', () => {
  it('numbers later hunks after earlier line-count changes', () => {
    const before = ['a', 'X', 'b', 'c', 'd', 'e', 'f', 'X', 'g'].join('\n');
    const spans = findMatches(before, 'X').spans;
    const rep = () => 'Y1\nY2';
    const after = applySpans(before, spans, rep);
    expect(after).toBe(['a', 'Y1', 'Y2', 'b', 'c', 'd', 'e', 'f', 'Y1', 'Y2', 'g'].join('\n'));
    const diff = diffSnippet(before, spans, rep, 1);
    expect(diff).toBe(
      [
        '@@ -1,3 +1,4 @@',
        ' a',
        '-X',
        '+Y1',
        '+Y2',
        ' b',
        '@@ -7,3 +8,4 @@',
        ' f',
        '-X',
        '+Y1',
        '+Y2',
        ' g',
      ].join('\n'),
    );
  });

  it('lineIndexAt finds the line of an offset', () => {
    const starts = lineStarts('ab\ncd\n\nef');
    expect(starts).toEqual([0, 3, 6, 7]);
    expect([0, 2, 3, 6, 8].map((o) => lineIndexAt(starts, o))).toEqual([0, 0, 1, 2, 3]);
  });
});
