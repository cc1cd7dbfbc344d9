// The TUI starts fast because it carries only the UI. This test bundles its two entries from
// source with esbuild, as scripts/bundle.mjs does for the build, and fails when the engine's heavy
// half reaches them: zod (the protocol's schemas), SQLite, the model SDKs, the shell grammar, or
// any engine file other than the zod-free protocol values (`@hermes/core/constants`).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = dirname(fileURLToPath(import.meta.url));

/** Packages that must never be part of the TUI's code. */
const HEAVY = [
  'zod',
  'better-sqlite3',
  'openai',
  '@anthropic-ai/sdk',
  '@modelcontextprotocol/sdk',
  'web-tree-sitter',
  'tree-sitter-bash',
  'yaml',
  'execa',
  'linkedom',
  'cron-parser',
  'tar',
];

/** Bundles one entry from source; returns the input paths esbuild used and the output's bytes. */
async function bundle(entry: string): Promise<{ inputs: string[]; bytes: number }> {
  const result = await build({
    entryPoints: [join(src, entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['@hermes/source'],
    external: ['react-devtools-core'],
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles.reduce((n, f) => n + f.contents.byteLength, 0);
  return { inputs: Object.keys(result.metafile.inputs), bytes };
}

/** Package names of the bundled inputs that come from node_modules. */
function packagesIn(inputs: string[]): Set<string> {
  const names = new Set<string>();
  for (const path of inputs) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (m?.[1]) names.add(m[1]);
  }
  return names;
}

describe('the TUI bundle carries no engine code', () => {
  for (const entry of ['run.ts', 'app/start.ts']) {
    it(`${entry}: no heavy package, no engine file but the zod-free protocol values`, async () => {
      const { inputs, bytes } = await bundle(entry);
      const heavy = [...packagesIn(inputs)].filter((p) => HEAVY.includes(p));
      expect(heavy, `heavy packages bundled into ${entry}`).toEqual([]);
      const engine = inputs.filter((p) => p.includes('core/src/'));
      const notValues = engine.filter(
        (p) =>
          !/core\/src\/(constants\.ts|protocol\/[^/]+\.ts)$/.test(p) ||
          /from 'zod'/.test(readFileSync(p, 'utf8')),
      );
      expect(notValues, `engine files bundled into ${entry}`).toEqual([]);
      expect(bytes).toBeGreaterThan(0);
    }, 60_000);
  }
});
