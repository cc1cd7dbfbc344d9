import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInk } from '../testing/ink.js';
import { ReferencePopup } from './ReferencePopup.js';

afterEach(() => cleanup());

describe('ReferencePopup', () => {
  it('marks the selected item and shows sizes, descriptions and how many more', async () => {
    const items = [
      { path: 'diff', kind: 'keyword' as const, description: 'git diff of the working tree' },
      ...Array.from({ length: 9 }, (_, i) => ({ path: `src/f${i}.ts`, kind: 'file' as const, bytes: 1500 })),
    ];
    const r = await renderInk(<ReferencePopup items={items} selected={1} width={80} />);
    const f = await r.waitFor('❯ 📄 @src/f0.ts');
    expect(f).toContain('± @diff git diff of the working tree');
    expect(f).toContain('1.5 KB');
    expect(f).toContain('… 2 more');
  });
});
