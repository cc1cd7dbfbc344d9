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
    // headings: no literal `#`, bold and underlined
    expect(plain).not.toContain('#');
    expect(out).toContain(`${ESC}[1m${ESC}[4mTitle${ESC}[24m${ESC}[22m`);
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

  it('renders inline code, bold and links inside list items as in a paragraph', () => {
    chalk.level = 1;
    const out = renderMarkdown(
      '- item with `code` and **bold**\n  - nested [link](https://x.org)\n1. step `two`',
      60,
    );
    const plain = strip(out);
    expect(plain).toContain('* item with code and bold');
    expect(plain).toContain('* nested link (https://x.org)');
    expect(plain).toContain('1. step two');
    expect(out).toContain(`${ESC}[36mcode${ESC}[39m`);
    expect(out).toContain(`${ESC}[1mbold${ESC}[22m`);
    chalk.level = 0;
    expect(renderMarkdown('- a `b` **c**', 60)).toBe('  * a b c');
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
    expect(renderMarkdown('```\none\ntwo\n```', 60)).toBe(
      '─'.repeat(12) + '\n  one\n  two\n' + '─'.repeat(12),
    );
  });

  it('frames code with a language label and rules, the code lines only indented', () => {
    chalk.level = 1;
    const lines = strip(
      renderMarkdown('Look:\n\n```python\nprint("│ x")\nif a:\n    b()\n```\n\nafter', 60),
    ).split('\n');
    const top = lines.findIndex((l) => l.startsWith('── python ─'));
    expect(top, lines.join('\n')).toBeGreaterThan(0);
    // copied code lines: the code after two spaces, no frame character added
    expect(lines.slice(top + 1, top + 4)).toEqual(['  print("│ x")', '  if a:', '      b()']);
    expect(lines[top + 4]).toMatch(/^─+$/);
    expect(lines[top + 4]!.length).toBe(lines[top]!.length);
    expect(lines.at(-1)).toBe('after');
  });

  it('headings without colour: no `#`, setext underlines for the first two levels', () => {
    chalk.level = 0;
    const out = renderMarkdown('# Big title\n\n## Part\n\n### Small\n\ntext', 60);
    expect(out).toBe('Big title\n=========\n\nPart\n----\n\nSmall\n\ntext');
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
