/** The normalising match strategies of `patch`, table-driven, both directions. */
import { describe, expect, it } from 'vitest';
import { findMatches } from './fuzzy-match.js';
import { blankAnchorError, diffChars, preserveFileCharacters, rogueIndentError } from './fuzzy-normalize.js';

describe('findMatches: in-line whitespace and Unicode look-alikes', () => {
  type Row = [title: string, file: string, oldString: string, strategy: string | null, matched?: string];
  const rows: Row[] = [
    ['runs of spaces inside a line', 'foo   bar baz\n', 'foo bar', 'inline-whitespace', 'foo   bar'],
    [
      'double space after a comma',
      'y = compute(a,  b)\n',
      'compute(a, b)',
      'inline-whitespace',
      'compute(a,  b)',
    ],
    [
      'single space in the file, double in old_string',
      'y = compute(a, b)\n',
      'compute(a,  b)',
      'inline-whitespace',
      'compute(a, b)',
    ],
    ['tab against a space, whole line', 'key\tvalue\n', 'key value', 'whitespace-normalized', 'key\tvalue'],
    [
      'tab against a space, part of a line',
      'set key\tvalue;\n',
      'key value',
      'inline-whitespace',
      'key\tvalue',
    ],
    ['across lines with CRLF', 'x = a  b\r\nc d\r\n', 'a b\nc d', 'inline-whitespace', 'a  b\r\nc d'],
    ['em dash against --', 'Wait — what?\n', 'Wait -- what?', 'unicode-normalized', 'Wait — what?'],
    ['en dash against -', 'pages 3–5\n', 'pages 3-5', 'unicode-normalized', 'pages 3–5'],
    ['ellipsis against ...', 'Loading…\n', 'Loading...', 'unicode-normalized', 'Loading…'],
    ['curly double quotes', 'say “hi”\n', 'say "hi"', 'unicode-normalized', 'say “hi”'],
    ['curly apostrophe', 'it’s fine\n', "it's fine", 'unicode-normalized', 'it’s fine'],
    ['U+2212 minus', 'x = −1\n', 'x = -1', 'unicode-normalized', 'x = −1'],
    ['ideographic space', '名前\u3000太郎\n', '名前 太郎', 'unicode-normalized', '名前\u3000太郎'],
    ['no-break space', 'Mr.\u00a0Smith\n', 'Mr. Smith', 'unicode-normalized', 'Mr.\u00a0Smith'],
    ['look-alikes in old_string, ASCII in the file', 'a -- b\n', 'a — b', 'unicode-normalized', 'a -- b'],
    ['look-alike copied as is', '    “quoted”\n', '“quoted”\n', 'exact', '“quoted”\n'],
    [
      'look-alike line trimmed',
      '  say “hi”  \n  next\n',
      'say "hi"\nnext',
      'unicode-normalized',
      '  say “hi”  \n  next',
    ],
    ['exact still wins', 'foo bar\n', 'foo bar', 'exact', 'foo bar'],
    ['different words do not match', 'foo   baz\n', 'foo bar', null],
    ['a missing space is not whitespace that differs', 'foobar\n', 'foo bar', null],
    ['a hyphen is not an em dash without a second hyphen', 'a — b\n', 'a - b', null],
    ['quotes of another kind do not match', "say 'hi'\n", 'say "hi"', null],
    ['letters are not folded', 'Café\n', 'Cafe', null],
    ['a Cyrillic look-alike is not folded', 'pаssword\n', 'password', null],
  ];
  it.each(rows)('%s', (_t, file, oldString, strategy, matched) => {
    const r = findMatches(file, oldString);
    expect(r.strategy).toBe(strategy);
    if (matched !== undefined) {
      expect(r.spans).toHaveLength(1);
      expect(file.slice(r.spans[0]!.start, r.spans[0]!.end)).toBe(matched);
    } else expect(r.spans).toEqual([]);
  });
});

describe('preserveFileCharacters', () => {
  it.each([
    ['Wait — what?', 'Wait -- what?', 'Wait -- why?', 'Wait — why?'],
    ['say “hi” — now', 'say "hi" -- now', 'say "hello" -- now', 'say “hello” — now'],
    ['Loading… done', 'Loading... done', 'Loading... finished', 'Loading… finished'],
    ['x = −1', 'x = -1', 'x = -2', 'x = −2'],
    ['it’s “fine”', 'it\'s "fine"', 'it\'s "great"', 'it’s “great”'],
    ['a — b', 'a -- b', 'a - b', 'a - b'],
  ])('%j edited as %j → %j keeps %j', (matched, oldString, newString, expected) => {
    expect(preserveFileCharacters(matched, oldString, newString)).toBe(expected);
  });
  it('falls back to new_string when the span does not fold to old_string', () => {
    expect(preserveFileCharacters('other text', 'x', 'y')).toBe('y');
  });
  it('diffChars keeps equal runs', () => {
    expect(diffChars('abc', 'abXc')).toEqual([
      { kind: 'equal', a0: 0, a1: 2 },
      { kind: 'insert', text: 'X' },
      { kind: 'equal', a0: 2, a1: 3 },
    ]);
  });
});

describe('rogueIndentError and blankAnchorError', () => {
  type Row = [title: string, oldString: string, newString: string, refused: boolean];
  const rows: Row[] = [
    [
      '16 spaces where the block uses 8',
      '        a = 1\n        b = 2',
      '        a = 1\n                b = 3',
      true,
    ],
    ['a tab deeper', '\tx()', '\t\tx()', true],
    ['same indentation', '        a = 1', '        a = 2', false],
    ['shallower', '        a = 1', '    a = 1', false],
    ['a new block opened with :', '    if x:', '    if x:\n        y()', false],
    ['a new block opened with {', '  f() {', '  f() {\n    g();', false],
    ['old_string already nests', '    call(\n        arg,', '    call(\n            arg,', false],
    ['blank lines do not count', '    a\n\n    b', '    a\n\n    c', false],
  ];
  it.each(rows)('%s', (_t, oldString, newString, refused) => {
    const e = rogueIndentError(oldString, newString);
    if (refused) expect(e).toMatch(/indented deeper.*Nothing was changed.*read_file/s);
    else expect(e).toBeUndefined();
  });
  it.each([
    [' ', true],
    ['\n\n', true],
    ['\t \n', true],
    ['x', false],
    ['  }', false],
  ])('blank anchor %j → %s', (oldString, refused) => {
    expect(blankAnchorError(oldString) !== undefined).toBe(refused);
  });
});
