import { describe, expect, it } from 'vitest';
import { liveTail, splitBlocks, StreamingRenderer } from './streaming.js';

describe('splitBlocks', () => {
  it('splits at blank lines but never inside fenced code', () => {
    const text = 'para one\nstill one\n\n```\ncode\n\nmore code\n```\n\nlast';
    expect(splitBlocks(text)).toEqual(['para one\nstill one', '```\ncode\n\nmore code\n```', 'last']);
  });

  it('keeps a line indented by two or more after a blank line in the block before it (a list item)', () => {
    const text =
      '1. step\n\n   more of step\n\n   ```sh\n   ls\n   ```\n\n2. next\n\n - one space: a new block';
    expect(splitBlocks(text)).toEqual([
      '1. step\n\n   more of step\n\n   ```sh\n   ls\n   ```',
      '2. next',
      ' - one space: a new block',
    ]);
  });

  it('keeps an unclosed fence growing as the last block', () => {
    expect(splitBlocks('intro\n\n```py\nx = 1\n\ny = 2')).toEqual(['intro', '```py\nx = 1\n\ny = 2']);
  });
});

describe('StreamingRenderer', () => {
  it('renders only the tail, caching finished blocks', () => {
    const calls: string[] = [];
    const r = new StreamingRenderer((md) => {
      calls.push(md);
      return md.toUpperCase();
    });
    const blocks = Array.from({ length: 20 }, (_, i) => `block ${i}`);
    const first = r.tail(blocks.join('\n\n'), 80, 3);
    expect(first).toEqual({ text: 'BLOCK 18\n\nBLOCK 19', clipped: true });
    calls.length = 0;
    const second = r.tail(blocks.join('\n\n') + ' grows', 80, 3);
    expect(second.text).toBe('BLOCK 18\n\nBLOCK 19 GROWS');
    expect(calls).toEqual(['block 19 grows']); // block 18 came from the cache
  });

  it('is not clipped when everything fits', () => {
    const r = new StreamingRenderer((md) => md);
    expect(r.tail('a\n\nb', 80, 10)).toEqual({ text: 'a\n\nb', clipped: false });
  });
});

describe('liveTail', () => {
  const code = ['```ts', ...Array.from({ length: 2000 }, (_, i) => `line ${i};`)].join('\n');
  it('renders a long growing block from its last lines only, fenced code still as code', () => {
    const calls: string[] = [];
    const r = new StreamingRenderer((md) => {
      calls.push(md);
      return md;
    });
    const tail = r.tail(`intro\n\n${code}`, 80, 10);
    expect(tail.text.split('\n').at(-1)).toBe('line 1999;');
    expect(tail.clipped).toBe(true);
    expect(calls[0]!.split('\n')).toHaveLength(21); // the fence line and 20 source lines
    expect(calls[0]!.startsWith('```ts\nline 1980;')).toBe(true);
  });
  it('keeps a short block whole, and a long paragraph as its last lines', () => {
    expect(liveTail('a\nb\nc', 5)).toBe('a\nb\nc');
    const para = Array.from({ length: 50 }, (_, i) => `w${i}`).join('\n');
    expect(liveTail(para, 2)).toBe('w46\nw47\nw48\nw49');
  });

  it('keeps the header and delimiter rows of a long table above its last rows (still a table)', () => {
    const rows = Array.from({ length: 100 }, (_, i) => `| r${i} | v${i} |`);
    const table = ['| name | value |', '|---|:---:|', ...rows].join('\n');
    expect(liveTail(table, 2)).toBe(['| name | value |', '|---|:---:|', ...rows.slice(-4)].join('\n'));
    // a paragraph whose second line is not a delimiter row keeps only its last lines
    const para = ['| not a table', 'just text', ...rows].join('\n');
    expect(liveTail(para, 2)).toBe(rows.slice(-4).join('\n'));
  });

  it('starts the tail of a long nested list at a line that is not indented like code', () => {
    const deep = Array.from({ length: 20 }, (_, i) => `    - deep ${i}`);
    const list = ['- top', ...deep, '- last top', '    - deep x'].join('\n');
    expect(liveTail(list, 2)).toBe('- last top\n    - deep x');
    // all of it indented (code indented by four): kept as it is
    const code = deep.join('\n');
    expect(liveTail(code, 2)).toBe(deep.slice(-4).join('\n'));
  });
});
