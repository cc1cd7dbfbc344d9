/**
 * The protocol files clients load at run time without zod (the TUI imports them by deep path,
 * eslint.config.js `ZOD_FREE_PROTOCOL`) import nothing at all, so no schema can creep in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;
const lint = readFileSync(join(here, '../../../eslint.config.js'), 'utf8');
const listed = /const ZOD_FREE_PROTOCOL = \[([^\]]*)\]/.exec(lint)?.[1] ?? '';
const files = [...listed.matchAll(/'([a-z.-]+)'/g)].map((m) => m[1]!);

describe('zod-free protocol files', () => {
  it('are listed in the lint config', () => {
    expect(files).toEqual(
      expect.arrayContaining(['constants', 'limits', 'approval-arming', 'approval-choices']),
    );
  });

  it.each(files)('%s.ts imports nothing', (file) => {
    const src = readFileSync(join(here, `${file}.ts`), 'utf8');
    expect(src).not.toMatch(/^\s*(import|export)\s[^;]*\sfrom\s/m);
    expect(src).not.toMatch(/\b(require|import)\(/);
  });
});
