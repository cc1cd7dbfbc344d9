import { describe, expect, it } from 'vitest';
import { capDetail } from './limits.js';

describe('capDetail', () => {
  it('keeps a short result as it is', () => {
    expect(capDetail('1\n2\n[exit code: 0]')).toBe('1\n2\n[exit code: 0]');
  });

  it('keeps the head and the tail of a long result around a marker', () => {
    const text = `${'a'.repeat(60)}${'b'.repeat(40)}${'c'.repeat(60)}`;
    const d = capDetail(text, 100);
    expect(d).toBe(`${'a'.repeat(50)}\n… 60 characters left out …\n${'c'.repeat(50)}`);
  });
});
