import { describe, expect, it } from 'vitest';
import { acceptReference, activeAtToken, referenceOf, referencesIn } from './at-refs.js';

describe('@ tokens in the composer', () => {
  it('finds the token the cursor is in, only after white space or at the start', () => {
    expect(activeAtToken('see @src/ap', 11)).toEqual({ start: 4, end: 11, query: 'src/ap' });
    expect(activeAtToken('@', 1)).toEqual({ start: 0, end: 1, query: '' });
    expect(activeAtToken('mail me@host.org', 16)).toBeNull();
    expect(activeAtToken('see @src now', 12)).toBeNull();
    expect(activeAtToken('/model @x', 9)).toBeNull();
    expect(activeAtToken('@https://x', 10)).toBeNull();
  });

  it('reads references: keywords, urls, folders, path-like files, accepted names', () => {
    expect(referencesIn('fix @src/app.ts and @diff, then @staged; see @https://x.org/a and @docs/')).toEqual([
      { kind: 'file', path: 'src/app.ts' },
      { kind: 'diff' },
      { kind: 'staged' },
      { kind: 'url', url: 'https://x.org/a' },
      { kind: 'folder', path: 'docs/' },
    ]);
    expect(referencesIn('ask @bob about it')).toEqual([]);
    expect(referencesIn('read @Makefile', new Set(['Makefile']))).toEqual([
      { kind: 'file', path: 'Makefile' },
    ]);
    expect(referencesIn('@a.ts @a.ts. x@b.ts')).toEqual([{ kind: 'file', path: 'a.ts' }]);
    expect(referenceOf('url:https://y.org')).toEqual({ kind: 'url', url: 'https://y.org' });
    expect(referencesIn('/image @a.png')).toEqual([]);
  });

  it('accepting a completion replaces the token and adds a space (not after a folder)', () => {
    const t = activeAtToken('see @ap now', 7)!;
    expect(acceptReference('see @ap now', t, 'src/app.ts')).toEqual({
      text: 'see @src/app.ts now',
      cursor: 16,
    });
    const u = activeAtToken('@sr', 3)!;
    expect(acceptReference('@sr', u, 'src/')).toEqual({ text: '@src/', cursor: 5 });
    expect(acceptReference('@sr', u, 'src/app.ts')).toEqual({ text: '@src/app.ts ', cursor: 12 });
  });
});
