import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileIndex } from './file-index.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-index-'));
  mkdirSync(join(root, 'src/components'), { recursive: true });
  writeFileSync(join(root, 'src/components/CompletionPopup.tsx'), 'popup');
  writeFileSync(join(root, 'src/app.ts'), 'x'.repeat(4200));
  writeFileSync(join(root, 'README.md'), '# hi');
  writeFileSync(join(root, '.gitignore'), 'secret.txt\n');
  writeFileSync(join(root, 'secret.txt'), 'no');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('FileIndex', () => {
  it('answers at once before the listing is done, then ranks the listed files', async () => {
    const index = new FileIndex({ engine: 'js' });
    const first = index.complete(root, 'app');
    expect(first.ready).toBe(false); // the listing runs in the background
    await index.ready(root);
    const r = index.complete(root, 'app');
    expect(r.ready).toBe(true);
    expect(r.items[0]).toEqual({ path: 'src/app.ts', kind: 'file', bytes: 4200 });
    expect(index.complete(root, 'secret').items).toEqual([]);
  });

  it('offers folders with a trailing slash', async () => {
    const index = new FileIndex({ engine: 'js' });
    await index.ready(root);
    expect(index.complete(root, 'src/comp').items[0]).toEqual({ path: 'src/components/', kind: 'folder' });
  });

  it('refreshes an old listing in the background and keeps answering from it', async () => {
    let now = 0;
    const index = new FileIndex({ engine: 'js', ttlMs: 1000, now: () => now });
    await index.ready(root);
    writeFileSync(join(root, 'src/new-file.ts'), 'n');
    expect(index.complete(root, 'newfile').items).toEqual([]);
    now = 5000;
    expect(index.complete(root, 'newfile').items).toEqual([]); // starts the refresh
    const deadline = Date.now() + 5000;
    while (index.complete(root, 'newfile').items.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(index.complete(root, 'newfile').items[0]?.path).toBe('src/new-file.ts');
  });
});
