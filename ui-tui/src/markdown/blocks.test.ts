import chalk from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { formatHeading, frameCode } from './blocks.js';

const level = chalk.level;
afterEach(() => {
  chalk.level = level;
});

describe('formatHeading', () => {
  it('styles instead of a `#` prefix', () => {
    chalk.level = 1;
    expect(formatHeading('Title', 1)).toBe('\u001b[1m\u001b[4mTitle\u001b[24m\u001b[22m');
    expect(formatHeading('Part', 3)).toBe('\u001b[1mPart\u001b[22m');
  });

  it('without colour: setext underlines as wide as the text (markdown again when copied)', () => {
    chalk.level = 0;
    expect(formatHeading('Größe ✓', 1)).toBe('Größe ✓\n=======');
    expect(formatHeading('Part', 2)).toBe('Part\n----');
    expect(formatHeading('Small', 4)).toBe('Small');
  });
});

describe('frameCode', () => {
  it('puts the label and the rules on lines of their own', () => {
    chalk.level = 0;
    expect(frameCode('a = 1\n\nb = 22', 'py', 80).split('\n')).toEqual([
      '── py ──────',
      '  a = 1',
      '',
      '  b = 22',
      '────────────',
    ]);
  });

  it('rules follow the longest line, up to the width', () => {
    chalk.level = 0;
    const long = 'x'.repeat(100);
    const lines = frameCode(long, 'txt', 40).split('\n');
    expect(lines[0]).toBe(`── txt ${'─'.repeat(33)}`);
    expect(lines[2]).toBe('─'.repeat(40));
  });
});
