/**
 * Guards the start-up budget of `hermes chat -q` (first model request ≤ 200 ms): the code loaded
 * before the first request must not contain yargs, zod or the YAML parser (about 50, 30–50 and
 * 10 ms of CPU here; config comes from the validated-config cache, tool schemas from a generated
 * table, and zod loads on a tool's first call). The test bundles the CLI from source the way
 * bin/scripts/bundle.mjs does (esbuild, lazily loaded chunks, core's package.json `sideEffects`
 * letting unused re-exports of an entry point fall away) and follows the static imports of the
 * chunks the chat path loads: main → profile-flag, resolve-home → commands/chat → chat/run-chat.
 * Dynamic `import()` further down is lazy and not followed.
 */
import { build, type Metafile } from 'esbuild';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The modules `hermes chat -q` imports one after another before its first model request. */
const CHAT_PATH = [
  'bin/src/main.ts',
  'bin/src/profile-flag.ts',
  'bin/src/resolve-home.ts',
  'bin/src/commands/chat.ts',
  'bin/src/chat/run-chat.ts',
];

/** Bundles the CLI from source, in memory, with the build's split and externals. */
async function bundleCli(): Promise<Metafile> {
  const result = await build({
    absWorkingDir: repo,
    entryPoints: ['bin/src/main.ts'],
    outdir: 'bin/dist/startup-test',
    write: false,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['@hermes/source'],
    external: [
      'better-sqlite3',
      'web-tree-sitter',
      '@hermes/ui-tui',
      '@hermes/ui-tui/*',
      '@hermes/platform-*',
    ],
    define: { __HERMES_VERSION__: '"0.0.0"', __HERMES_BUILD_ID__: '"test"' },
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile;
}

/**
 * Input files of every chunk loaded by importing `roots`' chunks: each chunk's static imports are
 * followed, its dynamic ones are not.
 */
function loadedInputs(meta: Metafile, roots: string[]): Set<string> {
  const chunks = Object.entries(meta.outputs);
  const start = roots.map((root) => {
    const hit = chunks.find(([, out]) => out.entryPoint === root || out.inputs[root] !== undefined);
    if (!hit) throw new Error(`no chunk holds ${root}`);
    return hit[0];
  });
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const visit = (path: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const out = meta.outputs[path];
    if (!out) return; // an external package, loaded by Node
    for (const input of Object.keys(out.inputs)) inputs.add(input);
    for (const imp of out.imports) if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
  };
  start.forEach(visit);
  return inputs;
}

/** npm package names among bundled inputs. */
function packagesOf(inputs: Set<string>): Set<string> {
  const names = new Set<string>();
  for (const path of inputs) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (m?.[1]) names.add(m[1]);
  }
  return names;
}

describe('hermes chat start-up imports', () => {
  it('the chat path (main → commands/chat → chat/run-chat) loads neither yargs, zod nor yaml', async () => {
    const meta = await bundleCli();
    const packages = packagesOf(loadedInputs(meta, CHAT_PATH));
    expect([...packages].filter((p) => /^(yargs|zod|yaml)$/.test(p))).toEqual([]);
    // the Anthropic SDK loads on the first call to an Anthropic target only
    expect(packages).not.toContain('@anthropic-ai/sdk');
    // the chunks followed do hold the engine: the test would see a regression
    expect(packages).toContain('openai');
  }, 60_000);

  it('zod is in the bundle, in a chunk the chat path loads only lazily', async () => {
    const meta = await bundleCli();
    const all = new Set(Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs)));
    expect(packagesOf(all)).toContain('zod');
  }, 60_000);
});
