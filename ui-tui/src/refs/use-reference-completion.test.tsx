import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@hermes/client/testing';
import type { FileCompletion } from '@hermes/core/protocol';
import { Composer } from '../components/Composer.js';
import { keys, renderInk } from '../testing/ink.js';
import { ReferenceSource } from './reference-source.js';

afterEach(() => cleanup());

const FILES: FileCompletion[] = [
  { path: 'src/app.ts', kind: 'file', bytes: 4200 },
  { path: 'src/', kind: 'folder' },
  { path: 'docs/api.md', kind: 'file', bytes: 900 },
];

/** A source whose answers wait until the test releases them (the daemon is slow). */
function slowSource() {
  const pending: Array<() => void> = [];
  const asked: string[] = [];
  const src = new ReferenceSource({
    request: (query) =>
      new Promise((resolve) => {
        asked.push(query);
        const q = query.toLowerCase();
        pending.push(() =>
          resolve({
            items: FILES.filter((f) => f.path.replace(/[/.]/g, '').includes(q.replace(/[/.]/g, ''))),
            ready: true,
          }),
        );
      }),
  });
  const release = (): void => {
    while (pending.length) pending.shift()!();
  };
  return { src, asked, release };
}

describe('@ completion in the composer', () => {
  it('echoes keys before any answer, then shows the popup; Tab accepts and the chip shows the size', async () => {
    const { src, asked, release } = slowSource();
    const sent: string[] = [];
    const r = await renderInk(<Composer onSubmit={(t) => sent.push(t)} references={src} />);
    await r.press('look at @a', 'p');
    await r.waitFor('› look at @ap'); // typed text is on screen with the daemon not answering
    expect(r.text()).not.toContain('src/app.ts');
    expect(asked[0]).toBe('a');
    release();
    await waitFor(() => asked.includes('ap'));
    release();
    await r.waitFor('❯ 📄 @src/app.ts');
    await r.press(keys.tab);
    await r.waitFor('› look at @src/app.ts');
    await r.waitFor('📄 src/app.ts (4.2 KB)');
    await r.press('please', keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['look at @src/app.ts please']);
  });

  it('offers @diff and @staged, Down chooses, Enter accepts; Esc closes the popup', async () => {
    const { src, release } = slowSource();
    const sent: string[] = [];
    const r = await renderInk(<Composer onSubmit={(t) => sent.push(t)} references={src} />);
    await r.press('@');
    release();
    await r.waitFor('@staged');
    await r.press(keys.down, keys.enter);
    await r.waitFor('› @staged');
    await r.waitFor('± staged');
    await r.press('and @d');
    release();
    await r.waitFor('❯ ± @diff');
    await r.press(keys.esc);
    await r.waitFor((f) => !f.includes('git diff of the working tree'));
    expect(sent).toEqual([]);
  });

  it('puts text the daemon refused back into an empty composer', async () => {
    const { src } = slowSource();
    const r = await renderInk(<Composer onSubmit={() => undefined} references={src} />);
    src.restore('fix @nope.ts');
    await r.waitFor('› fix @nope.ts');
  });
});
