import { describe, expect, it } from 'vitest';
import { BoundedSet, QuestionTable } from './questions.js';

describe('QuestionTable', () => {
  it('hands out tokens, finds by request id, and forgets the oldest past its bound', () => {
    const t = new QuestionTable(2);
    const base = { kind: 'approval' as const, values: ['once'], channel: 'C1', section: 's' };
    const a = t.add({ ...base, requestId: 'r1' });
    const b = t.add({ ...base, requestId: 'r2' });
    expect(a.token).not.toBe(b.token);
    expect(t.byRequest('r2')).toBe(b);
    t.add({ ...base, requestId: 'r3' });
    expect(t.get(a.token)).toBeUndefined();
    expect(t.get(b.token)?.requestId).toBe('r2');
  });
});

describe('BoundedSet', () => {
  it('keeps the newest entries', () => {
    const s = new BoundedSet(2);
    s.add('a');
    s.add('b');
    s.add('a'); // refreshed
    s.add('c');
    expect([s.has('a'), s.has('b'), s.has('c')]).toEqual([true, false, true]);
  });
});
