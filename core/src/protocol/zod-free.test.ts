/**
 * The protocol files behind `@hermes/core/constants` (what the TUI and the client load at run time
 * without zod) import nothing at all, so no schema can creep into them; and the entry offers every
 * protocol file that imports nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;
const entry = readFileSync(join(here, '../constants.ts'), 'utf8');
const files = [...entry.matchAll(/from '\.\/protocol\/([a-z.-]+)\.js'/g)].map((m) => m[1]!);
const importsNothing = (src: string): boolean =>
  !/^\s*(import|export)\s[^;]*\sfrom\s/m.test(src) && !/\b(require|import)\(/.test(src);

describe('zod-free protocol files', () => {
  it('are the ones @hermes/core/constants exports', () => {
    expect(files).toEqual(
      expect.arrayContaining(['constants', 'limits', 'approval-arming', 'approval-choices']),
    );
  });

  it.each(files)('%s.ts imports nothing', (file) => {
    expect(importsNothing(readFileSync(join(here, `${file}.ts`), 'utf8'))).toBe(true);
  });

  it('every protocol file that imports nothing is offered by @hermes/core/constants', () => {
    const free = readdirSync(here)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts')
      .filter((f) => importsNothing(readFileSync(join(here, f), 'utf8')))
      .map((f) => f.slice(0, -3));
    expect(free.filter((f) => !files.includes(f))).toEqual([]);
  });
});
