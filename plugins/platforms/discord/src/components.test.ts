import { describe, expect, it } from 'vitest';
import { ButtonTable, approvalRows, clarifyFits, clarifyRows, parseButtonId } from './components.js';

describe('button components', () => {
  it('approval rows: one button per allowed choice, ids that resolve back to the value', () => {
    const table = new ButtonTable();
    const token = table.add({ kind: 'a', requestId: 'r1', values: ['once', 'deny'] });
    const rows = approvalRows(token, ['once', 'deny']);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.components.map((b) => [b.label, b.style])).toEqual([
      ['Approve once', 3],
      ['Deny', 4],
    ]);
    const ref = parseButtonId(rows[0]!.components[1]!.custom_id)!;
    expect(table.resolve(ref)).toEqual({
      prompt: { kind: 'a', requestId: 'r1', values: ['once', 'deny'] },
      value: 'deny',
    });
    table.close(token);
    expect(table.resolve(ref)).toBeUndefined();
  });

  it('clarify rows: five buttons a row, long labels cut to 80 characters, more than 25 do not fit', () => {
    const choices = Array.from({ length: 7 }, (_, i) => (i === 0 ? 'y'.repeat(200) : `choice ${i}`));
    const rows = clarifyRows('t', choices);
    expect(rows.map((r) => r.components.length)).toEqual([5, 2]);
    expect(rows[0]!.components[0]!.label).toHaveLength(80);
    expect(clarifyFits(choices)).toBe(true);
    expect(clarifyFits(Array.from({ length: 26 }, (_, i) => String(i)))).toBe(false);
    expect(clarifyFits([])).toBe(false);
  });

  it('ids of other apps, a kind that does not match, or an index out of range resolve to nothing', () => {
    const table = new ButtonTable();
    const token = table.add({ kind: 'c', requestId: 'r', values: ['a'] });
    expect(parseButtonId('other:thing')).toBeUndefined();
    expect(table.resolve({ kind: 'a', token, index: 0 })).toBeUndefined();
    expect(table.resolve({ kind: 'c', token, index: 5 })).toBeUndefined();
  });

  it('keeps at most `max` open prompts (oldest dropped)', () => {
    const table = new ButtonTable(2);
    const first = table.add({ kind: 'a', requestId: '1', values: ['once'] });
    table.add({ kind: 'a', requestId: '2', values: ['once'] });
    table.add({ kind: 'a', requestId: '3', values: ['once'] });
    expect(table.resolve({ kind: 'a', token: first, index: 0 })).toBeUndefined();
  });
});
