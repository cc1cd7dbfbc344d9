import { describe, expect, it } from 'vitest';
import { ATTACHED_CONTEXT_OPEN, chipLabel, formatBytes, splitAttachedText } from './attachment-text.js';

describe('attached text', () => {
  it('splits the typed text from the block and reads the chips', () => {
    const msg = `look at @src/a.ts${ATTACHED_CONTEXT_OPEN}notice\nrefs: [{"kind":"file","ref":"src/a.ts","bytes":4200}]\n<attached-file …>\n</attached-context>`;
    expect(splitAttachedText(msg)).toEqual({
      text: 'look at @src/a.ts',
      chips: [{ kind: 'file', ref: 'src/a.ts', bytes: 4200 }],
    });
  });

  it('leaves a message without a well-formed block whole', () => {
    expect(splitAttachedText('plain')).toEqual({ text: 'plain', chips: [] });
    const bad = `x${ATTACHED_CONTEXT_OPEN}notice\nrefs: [{"kind":"nope","ref":"a"}]\n`;
    expect(splitAttachedText(bad)).toEqual({ text: bad, chips: [] });
    const broken = `x${ATTACHED_CONTEXT_OPEN}notice\nrefs: [oops\n`;
    expect(splitAttachedText(broken).chips).toEqual([]);
  });

  it('labels chips with their size, entries, truncation and warnings', () => {
    expect(chipLabel({ kind: 'file', ref: 'src/app.ts', bytes: 4200 })).toBe('📄 src/app.ts (4.2 KB)');
    expect(chipLabel({ kind: 'folder', ref: 'src/', entries: 12, bytes: 300 })).toBe(
      '📁 src/ (12 entries, 300 B)',
    );
    expect(chipLabel({ kind: 'diff', ref: 'diff', bytes: 100_000, truncated: true })).toBe(
      '± diff (truncated at 100.0 KB)',
    );
    expect(chipLabel({ kind: 'url', ref: 'https://x.org', warning: 'looks like role_hijack' })).toBe(
      '🌐 https://x.org (⚠ looks like role_hijack)',
    );
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
  });
});
