import { describe, expect, it } from 'vitest';
import { editContent, hunkTexts } from './edit-diff.js';

const DIFF = [
  '--- a/src/x.ts',
  '+++ b/src/x.ts',
  '@@ -1,3 +1,3 @@',
  ' keep',
  '-old line',
  '+new line',
  ' tail',
  '@@ -10,1 +10,2 @@',
  ' ten',
  '+eleven',
  '\\ No newline at end of file',
].join('\n');

describe('edit diffs for ACP', () => {
  it('reads the old and new text of the hunks', () => {
    expect(hunkTexts(DIFF)).toEqual({
      oldText: 'keep\nold line\ntail\n…\nten',
      newText: 'keep\nnew line\ntail\n…\nten\neleven',
    });
  });

  it('gives a diff item with an absolute path, and the unified diff as text', () => {
    const [diff, txt] = editContent({ path: 'src/x.ts', diff: DIFF }, '/work/p');
    expect(diff).toMatchObject({
      type: 'diff',
      path: '/work/p/src/x.ts',
      newText: expect.stringContaining('new line'),
    });
    expect(txt).toMatchObject({ type: 'content', content: { type: 'text', text: DIFF } });
  });
});
