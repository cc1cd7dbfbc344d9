import { describe, expect, it } from 'vitest';
import { costLabel, formatUsd } from './cost-label.js';

describe('cost labels', () => {
  it('formats USD by size', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.004213)).toBe('$0.0042');
    expect(formatUsd(0.0225)).toBe('$0.0225');
    expect(formatUsd(0.5)).toBe('$0.50');
    expect(formatUsd(0.123)).toBe('$0.123');
    expect(formatUsd(12.345)).toBe('$12.35');
  });
  it('says local, unknown and partial rather than inventing a number', () => {
    expect(costLabel(0, 'local')).toBe('local');
    expect(costLabel(undefined, 'unknown')).toBe('unknown');
    expect(costLabel(0.5, 'partial')).toBe('$0.50 (partial)');
    expect(costLabel(0.001, 'priced')).toBe('$0.001');
    expect(costLabel(undefined, undefined)).toBeUndefined();
  });
});
