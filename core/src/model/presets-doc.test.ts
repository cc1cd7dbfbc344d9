// docs/providers.md lists every preset exactly as the table says.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROVIDER_PRESETS } from './presets.js';
import { providerTableMarkdown } from './presets-doc.js';

const doc = readFileSync(new URL('../../../docs/providers.md', import.meta.url), 'utf8');

describe('docs/providers.md', () => {
  it('holds the table generated from the presets (copy the expected text into the doc when it differs)', () => {
    const start = doc.indexOf('<!-- providers-table:start -->');
    const end = doc.indexOf('<!-- providers-table:end -->');
    expect(start).toBeGreaterThan(0);
    expect(doc.slice(start + '<!-- providers-table:start -->'.length, end).trim()).toBe(
      providerTableMarkdown(),
    );
    for (const p of PROVIDER_PRESETS) expect(doc).toContain(`| \`${p.id}\` |`);
  });
});
