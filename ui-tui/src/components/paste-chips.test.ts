import { describe, expect, it } from 'vitest';
import { addChip, chipBefore, expandChips, isLongPaste, type PasteChips } from './paste-chips.js';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('paste chips', () => {
  it('collapses more than 10 lines or more than 2,000 characters', () => {
    expect(isLongPaste(lines(10))).toBe(false);
    expect(isLongPaste(lines(11))).toBe(true);
    expect(isLongPaste('x'.repeat(2000))).toBe(false);
    expect(isLongPaste('x'.repeat(2001))).toBe(true);
  });

  it('labels by lines (or characters for one line), unique among the chips', () => {
    const chips: PasteChips = new Map();
    expect(addChip(chips, lines(12))).toBe('[pasted 12 lines]');
    expect(addChip(chips, lines(12))).toBe('[pasted 12 lines #2]');
    expect(addChip(chips, 'y'.repeat(2500))).toBe('[pasted 2500 chars]');
  });

  it('expands the chips still in the text, leaving a label inside pasted text alone', () => {
    const chips: PasteChips = new Map();
    const a = addChip(chips, 'A\n[pasted 3 lines]\nA');
    const b = addChip(chips, 'B\nB\nB');
    expect(b).toBe('[pasted 3 lines #2]');
    expect(expandChips(`see ${a} and ${b}!`, chips)).toBe('see A\n[pasted 3 lines]\nA and B\nB\nB!');
    expect(expandChips('only typed', chips)).toBe('only typed');
  });

  it('finds the chip that ends at the cursor', () => {
    const chips: PasteChips = new Map();
    const a = addChip(chips, lines(20));
    const text = `x ${a} y`;
    expect(chipBefore(text, 2 + a.length, chips)).toBe(a);
    expect(chipBefore(text, 3 + a.length, chips)).toBeNull();
  });
});
