import { describe, expect, it } from 'vitest';
import { capHeadTail, HeadTailBuffer, omissionMarker } from './head-tail.js';

describe('capHeadTail', () => {
  it('returns short text unchanged', () => {
    expect(capHeadTail('hello', 10)).toEqual({ text: 'hello', truncated: false, omitted: 0 });
  });

  it('keeps head and tail within the cap and says how much was cut', () => {
    const text = 'A'.repeat(500) + 'B'.repeat(500) + 'C'.repeat(500);
    const r = capHeadTail(text, 200);
    expect(r.truncated).toBe(true);
    expect(r.text.length).toBeLessThanOrEqual(200);
    expect(r.text.startsWith('AAAA')).toBe(true);
    expect(r.text.endsWith('CCCC')).toBe(true);
    expect(r.text).toContain(`[... ${r.omitted.toLocaleString('en-US')} chars omitted ...]`);
    expect(r.text.length - omissionMarker(r.omitted).length + r.omitted).toBe(text.length);
  });

  it('honours headRatio', () => {
    const text = 'x'.repeat(10_000);
    const r = capHeadTail('H'.repeat(5_000) + text + 'T'.repeat(5_000), 1_000, { headRatio: 0.4 });
    const [head, tail] = r.text.split(/\n\n\[\.\.\. .* omitted \.\.\.\]\n\n/);
    expect(head!.length).toBeLessThan(tail!.length);
  });

  it('degrades to a plain slice for a cap smaller than the marker', () => {
    expect(capHeadTail('abcdefghijklmnopqrstuvwxyz'.repeat(4), 5).text).toBe('abcde');
  });
});

describe('HeadTailBuffer', () => {
  it('returns everything when the total fits', () => {
    const b = new HeadTailBuffer(1_000);
    for (let i = 0; i < 90; i++) b.push(`line ${i}\n`.padEnd(10, '.'));
    expect(b.toString().length).toBe(b.totalChars);
    expect(b.toString()).toContain('line 89');
  });

  it('keeps the first and last output of a huge stream in bounded memory', () => {
    const b = new HeadTailBuffer(2_000, { headRatio: 0.4 });
    b.push('START\n');
    for (let i = 0; i < 100_000; i++) b.push(`row ${i}\n`);
    b.push('END\n');
    const s = b.toString();
    expect(s.length).toBeLessThanOrEqual(2_000);
    expect(s.startsWith('START\nrow 0\n')).toBe(true);
    expect(s.endsWith('row 99999\nEND\n')).toBe(true);
    expect(s).toMatch(/\[\.\.\. [\d,]+ chars omitted \.\.\.\]/);
  });
});
