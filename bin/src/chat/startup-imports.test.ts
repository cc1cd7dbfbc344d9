/**
 * Guards the start-up budget of `hermes chat -q` (first model request ≤ 200 ms): the
 * modules loaded before the first request must not pull in yargs, zod or the YAML parser (about
 * 50, 30 and 10 ms of CPU here; config comes from the validated-config cache instead). Walks the
 * static, non-type imports of the sources from main.ts's chat path; dynamic `import()` is lazy
 * and not followed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PACKAGES: Record<string, string> = {
  '@hermes/client': 'client/src',
  '@hermes/core': 'core/src',
  '@hermes/tui-gateway': 'tui-gateway/src',
  '@hermes/ui-tui': 'ui-tui/src',
};

/** Static value imports and re-exports of a source file (type-only ones left out). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /^(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)';/gms;
  for (const m of text.matchAll(re)) if (!m[1]) out.push(m[2]!);
  return out;
}

function resolveSource(from: string, spec: string): string | undefined {
  let base: string | undefined;
  if (spec.startsWith('.')) base = resolve(dirname(from), spec);
  else {
    const pkg = Object.keys(PACKAGES).find((p) => spec === p || spec.startsWith(`${p}/`));
    if (pkg) base = join(repo, PACKAGES[pkg]!, spec === pkg ? 'index' : spec.slice(pkg.length + 1));
  }
  if (!base) return undefined;
  for (const c of [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    `${base}/index.ts`,
  ])
    // a folder of that name (an area's entry point `@hermes/core/<area>`) resolves to its index.ts
    if (existsSync(c) && statSync(c).isFile()) return c;
  throw new Error(`cannot resolve ${spec} from ${from}`);
}

/** Bare packages reached through static imports from `entry`. */
function packagesReached(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('node:')) continue;
      const next = resolveSource(file, spec);
      if (next) walk(next);
      else if (!packages.has(spec)) packages.set(spec, file.slice(repo.length + 1));
    }
  };
  walk(entry);
  return packages;
}

describe('hermes chat start-up imports', () => {
  it('the chat path (main → commands/chat → chat/run-chat) loads neither yargs, zod nor yaml', () => {
    const reached = new Map([
      ...packagesReached(join(repo, 'bin/src/main.ts')),
      ...packagesReached(join(repo, 'bin/src/commands/chat.ts')),
      ...packagesReached(join(repo, 'bin/src/chat/run-chat.ts')),
    ]);
    const heavy = [...reached].filter(([pkg]) => /^(yargs|zod|yaml)(\/|$)/.test(pkg));
    expect(heavy.map(([pkg, from]) => `${pkg} (imported by ${from})`)).toEqual([]);
    // the walk does reach the engine: the test would see a regression
    expect([...reached.keys()]).toContain('openai');
  });
});
