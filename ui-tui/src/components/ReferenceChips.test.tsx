import { ATTACHED_CONTEXT_OPEN } from '@hermes/core/constants';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInk } from '../testing/ink.js';
import { MessageView } from './MessageView.js';
import { pendingChip, ReferenceChips } from './ReferenceChips.js';

afterEach(() => cleanup());

describe('reference chips', () => {
  it('a user message shows its typed text and chips, not the attached content', async () => {
    const text =
      `explain @src/app.ts${ATTACHED_CONTEXT_OPEN}notice\n` +
      `refs: [{"kind":"file","ref":"src/app.ts","bytes":4200},{"kind":"diff","ref":"diff","bytes":120000,"truncated":true}]\n` +
      `<attached-file id="abc">SECRET_BODY</attached-file id="abc">\n</attached-context>`;
    const r = await renderInk(<MessageView item={{ n: 1, kind: 'user', text }} width={80} />);
    const f = await r.waitFor('📄 src/app.ts (4.2 KB)');
    expect(f).toContain('› explain @src/app.ts');
    expect(f).toContain('± diff (truncated at 120.0 KB)');
    expect(f).not.toContain('SECRET_BODY');
  });

  it('chips of references being typed take sizes from completion answers', async () => {
    const sizes = new Map([['a.ts', 812]]);
    const chips = [
      pendingChip({ kind: 'file', path: 'a.ts' }, (p) => sizes.get(p)),
      pendingChip({ kind: 'folder', path: 'src/' }, () => undefined),
      pendingChip({ kind: 'url', url: 'https://x.org' }, () => undefined),
      pendingChip({ kind: 'staged' }, () => undefined),
    ];
    const r = await renderInk(<ReferenceChips chips={chips} />);
    const f = await r.waitFor('📄 a.ts (812 B)');
    expect(f).toContain('📁 src/');
    expect(f).toContain('🌐 https://x.org');
    expect(f).toContain('± staged');
  });
});
