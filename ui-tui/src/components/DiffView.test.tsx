import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInk } from '../testing/ink.js';
import { DiffView } from './DiffView.js';

afterEach(() => cleanup());

const DIFF = ['--- a/x.txt', '+++ b/x.txt', '@@ -1,2 +1,2 @@', ' same', '-old', '+new'].join('\n');

describe('DiffView', () => {
  it('shows the diff lines, control characters removed', async () => {
    const r = await renderInk(<DiffView diff={`${DIFF}\n+evil\u001b]52;c;Zm9v\u0007`} width={60} />);
    const f = r.text();
    expect(f).toContain('--- a/x.txt');
    expect(f).toContain('-old');
    expect(f).toContain('+new');
    expect(f).not.toContain('\u001b]52');
  });

  it('caps the lines with a note of how many more, and cuts long lines to the width', async () => {
    const long = [DIFF, ...Array.from({ length: 30 }, (_, i) => `+added ${i} ${'x'.repeat(200)}`)].join('\n');
    const r = await renderInk(<DiffView diff={long} width={40} maxLines={10} />);
    const f = r.text();
    expect(f).toContain('+26 more lines');
    expect(f.split('\n').every((l) => l.length <= 40)).toBe(true);
  });
});
