/**
 * Bundles the compiled CLI (dist/main.js: yargs, the command modules, core, the daemon) into
 * dist/bundle/ with esbuild, run after `tsc -b` by `npm run build`. One bundle with lazily loaded
 * chunks instead of several hundred modules cuts start-up (module resolution and linking) roughly
 * in half: it is what brings `hermes chat -q` to its first model request within the issue-2 budget
 * (bench `chat.first_request`). `bin/hermes` falls back to dist/main.js when the bundle is missing
 * or older than any compiled package it contains.
 *
 * Left outside the bundle, loaded from their packages at run time:
 * - better-sqlite3: a native addon found relative to its own package;
 * - web-tree-sitter: finds its wasm runtime relative to its own module (the bash grammar of the
 *   approval rules, core/src/approvals/shell/grammar.ts);
 * - @hermes/ui-tui: has its own bundle (ui-tui/scripts/bundle.mjs) found relative to its package;
 * - platform plugins: loaded by a computed specifier when a platform is enabled.
 */
import { build } from 'esbuild';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeEsmBundle } from '../../scripts/esbuild-node-esm.mjs';
import { pruneSuperseded } from '../../scripts/bundle-outputs.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(pkg, 'dist', 'bundle');
const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
// earlier builds' chunks stay: a running daemon still loads them (scripts/bundle-outputs.mjs)
mkdirSync(outdir, { recursive: true });
const result = await build({
  metafile: true,
  entryPoints: { main: join(pkg, 'dist', 'main.js') },
  outdir,
  ...nodeEsmBundle,
  external: ['better-sqlite3', 'web-tree-sitter', '@hermes/ui-tui', '@hermes/ui-tui/*', '@hermes/platform-*'],
  // main.ts reads its version from ../package.json unless this constant is defined; the build id
  // keys caches of derived data (core/src/config/config-cache.ts), so a rebuild invalidates them
  define: {
    __HERMES_VERSION__: JSON.stringify(version),
    __HERMES_BUILD_ID__: JSON.stringify(`${version}+${Date.now().toString(36)}`),
  },
});
pruneSuperseded(outdir, Object.keys(result.metafile.outputs));
