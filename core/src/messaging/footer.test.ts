import { describe, expect, it } from 'vitest';
import { buildFooterLine, withFooter, type FooterInfo } from './footer.js';

describe('buildFooterLine', () => {
  const home = '/home/me';
  it.each<[string, FooterInfo, string]>([
    [
      'everything',
      { model: 'gpt-4o', contextTokens: 32_000, contextWindow: 128_000, cwd: '/home/me/proj' },
      'gpt-4o · 25% ctx · ~/proj',
    ],
    ['no model', { contextTokens: 1000, contextWindow: 10_000, cwd: '/srv' }, '10% ctx · /srv'],
    ['no window: no percentage', { model: 'm', contextTokens: 1000, cwd: '/srv' }, 'm · /srv'],
    ['no tokens: no percentage', { model: 'm', contextWindow: 1000 }, 'm'],
    ['zero window', { model: 'm', contextTokens: 5, contextWindow: 0 }, 'm'],
    ['NaN tokens', { model: 'm', contextTokens: NaN, contextWindow: 100 }, 'm'],
    ['negative tokens', { model: 'm', contextTokens: -1, contextWindow: 100 }, 'm'],
    ['capped at 100%', { contextTokens: 500, contextWindow: 100 }, '100% ctx'],
    ['zero tokens is 0%', { contextTokens: 0, contextWindow: 100 }, '0% ctx'],
    ['home itself', { cwd: '/home/me' }, '~'],
    ['blank strings skipped', { model: '  ', cwd: '' }, ''],
    ['null items', { model: null, contextTokens: null, contextWindow: null, cwd: null }, ''],
    ['nothing', {}, ''],
  ])('%s', (_n, info, expected) => {
    const line = buildFooterLine(info, home);
    expect(line).toBe(expected);
    expect(line).not.toMatch(/\?|NaN|undefined/);
  });

  it('withFooter appends only when there is something to show', () => {
    expect(withFooter('hi', { model: 'm' }, '/h')).toBe('hi\n\n— m');
    expect(withFooter('hi', {}, '/h')).toBe('hi');
  });
});
