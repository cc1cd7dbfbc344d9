import chalk from 'chalk';
import stringWidth from 'string-width';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { growReply, startReply } from '../state/reply-parts.js';
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

const level = chalk.level;
beforeAll(async () => {
  await loadMarkdown();
  chalk.level = 0;
});
afterEach(() => {
  chalk.level = 0;
});
afterAll(() => {
  chalk.level = level;
});

describe('a task list', () => {
  it('shows one box per item, tight or loose, checked or not', () => {
    expect(renderMarkdown('- [ ] todo\n- [x] done', 60)).toBe('  * [ ] todo\n  * [x] done');
    expect(renderMarkdown('- [ ] todo\n\n- [X] done', 60)).toBe('  * [ ] todo\n  * [x] done');
    expect(renderMarkdown('1. [ ] first\n2. [x] second', 60)).toBe('  1. [ ] first\n  2. [x] second');
  });

  it('wraps a task under its text, after the box', () => {
    const out = renderMarkdown(`- [ ] ${'word '.repeat(12).trim()}`, 30).split('\n');
    expect(out[0]).toBe('  * [ ] word word word word');
    for (const l of out.slice(1)) expect(l).toMatch(/^ {8}word/);
  });
});

describe('list items wrapped to the width', () => {
  it('indents the wrapped lines of an item under its text, nested lists too', () => {
    const md = `- ${'alpha '.repeat(12).trim()}\n  - ${'beta '.repeat(12).trim()}\n1. ${'gamma '.repeat(10).trim()}`;
    const lines = renderMarkdown(md, 32).split('\n');
    for (const l of lines) expect(stringWidth(l), l).toBeLessThanOrEqual(32);
    const alpha = lines.filter((l) => l.includes('alpha'));
    expect(alpha[0]).toMatch(/^ {2}\* alpha/);
    expect(alpha.length).toBeGreaterThan(1);
    for (const l of alpha.slice(1)) expect(l).toMatch(/^ {4}alpha/);
    const beta = lines.filter((l) => l.includes('beta'));
    expect(beta[0]).toMatch(/^ {4}\* beta/);
    for (const l of beta.slice(1)) expect(l).toMatch(/^ {6}beta/);
    const gamma = lines.filter((l) => l.includes('gamma'));
    expect(gamma[0]).toMatch(/^ {2}1\. gamma/);
    for (const l of gamma.slice(1)) expect(l).toMatch(/^ {5}gamma/);
  });

  it('keeps the paragraphs of a loose item under its text, apart by a blank line', () => {
    expect(renderMarkdown('- one\n\n  more of one\n\n- two', 60)).toBe('  * one\n\n    more of one\n  * two');
  });

  it('keeps styles on every wrapped line of an item', () => {
    chalk.level = 1;
    const out = renderMarkdown(`- **${'bold '.repeat(10).trim()}**`, 30).split('\n');
    expect(out.length).toBeGreaterThan(1);
    for (const l of out) expect(l).toContain('\u001b[1m');
  });
});

describe('an ordered list', () => {
  it('starts at its first number', () => {
    expect(renderMarkdown('3. third\n4. fourth', 60)).toBe('  3. third\n  4. fourth');
  });

  it('counts only its own items, not those of a list nested in it', () => {
    expect(renderMarkdown('1. a\n   1. sub\n   2. sub2\n2. b', 60)).toBe(
      '  1. a\n    1. sub\n    2. sub2\n  2. b',
    );
  });

  it('keeps the lines under an item under its text when the number gets a digit longer', () => {
    expect(renderMarkdown('9. nine\n   next line\n10. ten\n    next line', 60)).toBe(
      '  9. nine\n     next line\n  10. ten\n      next line',
    );
  });

  it('numbers by markdown, not by the numbers typed', () => {
    expect(renderMarkdown('1. a\n1. b\n1. c', 60)).toBe('  1. a\n  2. b\n  3. c');
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
