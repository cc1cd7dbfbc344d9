import chalk from 'chalk';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadMarkdown, renderMarkdown } from './render.js';

const ESC = '\u001b';
const SGR = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');
const strip = (s: string): string => s.replace(SGR, '');
const level = chalk.level;
afterEach(() => {
  chalk.level = level;
});

const doc = [
  '# Title',
  '',
  'Some *text* with `code` and a [link](https://example.com).',
  '',
  '- first',
  '- second',
  '',
  '> a quote',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  '```js',
  'const x = "s";',
  '```',
  '',
  '```diff',
  '-old line',
  '+new line',
  '```',
].join('\n');

describe('renderMarkdown', () => {
  beforeAll(async () => {
    await loadMarkdown();
  });

  it('renders headings, lists, quotes, tables, links and code for the terminal', () => {
    chalk.level = 1;
    const out = renderMarkdown(doc, 60);
    const plain = strip(out);
    expect(plain).toContain('# Title');
    expect(plain).toMatch(/\* first\n\s*\* second/);
    expect(plain).toContain('a quote');
    expect(plain).toMatch(/│ a\s+│ b\s+│/);
    expect(plain).toContain('https://example.com');
    expect(plain).toContain('  const x = "s";');
    // highlighted: the keyword and the string carry colour codes
    expect(out).toContain(`${ESC}[34mconst${ESC}[39m`);
    expect(out).toContain(`${ESC}[32m"s"${ESC}[39m`);
    // diff lines coloured red/green
    expect(out).toContain(`${ESC}[31m-old line${ESC}[39m`);
    expect(out).toContain(`${ESC}[32m+new line${ESC}[39m`);
  });

  it('writes no escape codes at colour level 0 (NO_COLOR)', () => {
    chalk.level = 0;
    const out = renderMarkdown(doc, 60);
    expect(out).not.toContain(ESC);
    expect(out).toContain('const x = "s";');
  });

  it('keeps single newlines as line breaks; lists, tables and code blocks stay intact', () => {
    chalk.level = 0;
    const lines = Array.from({ length: 3 }, (_, i) => `Line ${i + 1}: output`).join('\n');
    expect(renderMarkdown(lines, 60).split('\n')).toEqual([
      'Line 1: output',
      'Line 2: output',
      'Line 3: output',
    ]);
    const plain = renderMarkdown(doc, 60);
    expect(plain).toMatch(/\* first\n\s*\* second/);
    expect(plain).toMatch(/│ a\s+│ b\s+│/);
    expect(renderMarkdown('```\none\ntwo\n```', 60)).toBe('  one\n  two');
  });

  it('a bold span cut by the wrap is bold on both lines', () => {
    chalk.level = 1;
    const out = renderMarkdown('A long answer with some words in it, then **bold words** at the end.', 46);
    const lines = out.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    const second = lines.find((l) => strip(l).startsWith('words'));
    expect(second, JSON.stringify(out)).toBeDefined();
    expect(second!.startsWith(`${ESC}[1m`)).toBe(true);
  });

  it('reflows paragraphs to the width', () => {
    chalk.level = 0;
    const out = renderMarkdown('word '.repeat(40), 30);
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(30);
  });
});
