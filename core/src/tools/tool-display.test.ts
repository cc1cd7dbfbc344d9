/** Drift check: the committed tool display table is what the definitions render. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinTools } from './registry.js';
import { renderToolDisplay, TOOL_DISPLAY_FILE } from './tool-display.js';

describe('tool display table', () => {
  it('core/src/protocol/tool-display.generated.ts is up to date (run `npm run gen:protocol`)', () => {
    expect(readFileSync(TOOL_DISPLAY_FILE, 'utf8')).toBe(renderToolDisplay(builtinTools()));
  });

  it('imports nothing (safe for the TUI bundle) and holds every verb', async () => {
    const text = readFileSync(TOOL_DISPLAY_FILE, 'utf8');
    expect(text).not.toMatch(/^\s*(import|export .* from)\b/m);
    const { TOOL_VERBS } = await import('../protocol/tool-display.generated.js');
    for (const t of builtinTools()) expect(TOOL_VERBS[t.name]).toEqual(t.verb);
  });

  it('quotes names and verbs that need it', () => {
    const text = renderToolDisplay([
      {
        name: 'odd-name',
        description: '',
        parameters: {},
        readOnly: true,
        verb: ["Did 'it'", 'Doing'],
        handler: async () => ({ ok: true, content: '' }),
      },
    ]);
    expect(text).toContain(`  'odd-name': ['Did \\'it\\'', 'Doing'],`);
  });
});
