import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { editKeyOf, isForwardDelete, splitControlKeys } from './composer-keys.js';
import * as ed from './editor.js';

/**
 * What Ink 6's useInput reports for each raw sequence (input, key flags), as read from its
 * parse-keypress: DEL and `ESC [3~` are both `delete`; `ESC b` is meta with input `b`.
 */
const REPORTS: Record<string, [string, Partial<Key>]> = {
  '\u007f': ['', { delete: true }],
  '\b': ['', { backspace: true }],
  '\u001b[3~': ['', { delete: true }],
  '\u001b[3;5~': ['', { delete: true, ctrl: true }],
  '\u001b\u007f': ['', { delete: true, meta: true }],
  '\u0017': ['w', { ctrl: true }],
  '\u001bb': ['b', { meta: true }],
  '\u001bf': ['f', { meta: true }],
  '\u001bd': ['d', { meta: true }],
  '\u001b[1;5D': ['', { leftArrow: true, ctrl: true }],
  '\u001b[1;5C': ['', { rightArrow: true, ctrl: true }],
  '\u001b[1;3D': ['', { leftArrow: true, meta: true }],
  '\u001a': ['z', { ctrl: true }],
  b: ['b', {}],
  '\u001b[D': ['', { leftArrow: true }],
};

function inkKey(seq: string): { input: string; key: Key } {
  const [input, flags] = REPORTS[seq]!;
  return { input, key: { ctrl: false, meta: false, shift: false, ...flags } as Key };
}

describe('editKeyOf with the sequences terminals send', () => {
  it.each([
    ['Backspace (DEL)', '\u007f', 'backspace'],
    ['Ctrl+H', '\b', 'backspace'],
    ['Delete', '\u001b[3~', 'delete-forward'],
    ['Ctrl+Delete', '\u001b[3;5~', 'delete-word-forward'],
    ['Alt+Backspace', '\u001b\u007f', 'delete-word-back'],
    ['Ctrl+W', '\u0017', 'delete-word-back'],
    ['Alt+B', '\u001bb', 'word-left'],
    ['Alt+F', '\u001bf', 'word-right'],
    ['Alt+D', '\u001bd', 'delete-word-forward'],
    ['Ctrl+Left', '\u001b[1;5D', 'word-left'],
    ['Ctrl+Right', '\u001b[1;5C', 'word-right'],
    ['Alt+Left', '\u001b[1;3D', 'word-left'],
    ['Ctrl+Z', '\u001a', 'suspend'],
    ['a letter', 'b', null],
    ['Left', '\u001b[D', null],
  ])('%s', (_name, seq, action) => {
    const { input, key } = inkKey(seq);
    expect(editKeyOf(input, key, seq)).toBe(action);
  });

  it('tells the Delete key by its sequence only', () => {
    expect(isForwardDelete('\u001b[3~')).toBe(true);
    expect(isForwardDelete('\u001b[3;2~')).toBe(true);
    expect(isForwardDelete('\u001b[3$')).toBe(true);
    expect(isForwardDelete('\u007f')).toBe(false);
    expect(isForwardDelete('')).toBe(false);
  });
});

describe('deleteWordForward', () => {
  it('deletes to the end of the next word', () => {
    expect(ed.deleteWordForward({ text: 'one two three', cursor: 3 })).toEqual({
      text: 'one three',
      cursor: 3,
    });
    expect(ed.deleteWordForward({ text: 'end', cursor: 3 })).toEqual({ text: 'end', cursor: 3 });
  });
});

describe('splitControlKeys', () => {
  const none = { ctrl: false, meta: false, shift: false, backspace: false, delete: false } as Key;
  it('splits text and control keys in order, with the key report each has alone', () => {
    const keys = splitControlKeys('ab\u0013c\u007f\u0008', none)!;
    expect(keys.map((k) => [k.input, k.key.ctrl, k.key.delete, k.key.backspace])).toEqual([
      ['ab', false, false, false],
      ['s', true, false, false],
      ['c', false, false, false],
      ['', false, true, false],
      ['', false, false, true],
    ]);
  });
  it('leaves chunks without control keys, and Tab, LF and CR, to the text', () => {
    expect(splitControlKeys('hello\r', none)).toBeNull();
    expect(splitControlKeys('a\tb\nc', none)).toBeNull();
    expect(splitControlKeys('\u0013', none)).toBeNull();
  });
  it('makes each CR an Enter of its own in a chunk that holds editing keys (typed, not pasted)', () => {
    const keys = splitControlKeys('\u0015final\rnext\u007ft', none)!;
    expect(keys.map((k) => [k.input, k.key.ctrl, k.key.return, k.key.delete])).toEqual([
      ['u', true, false, false],
      ['final', false, false, false],
      ['\r', false, true, false],
      ['next', false, false, false],
      ['', false, false, true],
      ['t', false, false, false],
    ]);
    // other control keys (a form feed in pasted code, Ctrl+S) leave CRs to the text
    expect(splitControlKeys('a\rb\u0013', none)!.map((k) => k.input)).toEqual(['a\rb', 's']);
  });
});
