import { describe, expect, it } from 'vitest';
import { splitBlocks, StreamingRenderer } from './streaming.js';

describe('splitBlocks', () => {
  it('splits at blank lines but never inside fenced code', () => {
    const text = 'para one\nstill one\n\n```\ncode\n\nmore code\n```\n\nlast';
    expect(splitBlocks(text)).toEqual(['para one\nstill one', '```\ncode\n\nmore code\n```', 'last']);
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
