/**
 * Bundles the heavy half of the TUI (dist/app/start.js: Ink, React, Yoga, the app; markdown and
 * highlighting in lazily loaded chunks) into dist/bundle/ with esbuild, run after `tsc -b` by
 * `npm run build`. Loading one bundle instead of a few hundred modules cuts the TUI's start-up
 * (module resolution, CJS export scanning) several times; `run.ts` falls back to dist/app/start.js
 * when the bundle is missing or older than it.
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeEsmBundle } from '../../scripts/esbuild-node-esm.mjs';
import { inkFramePatch } from './ink-frame-patch.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(pkg, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { start: join(pkg, 'dist', 'app', 'start.js') },
  outdir,
  ...nodeEsmBundle,
  // Ink's React DevTools hook, only loaded with DEV=true, needs a package we do not ship
  external: ['react-devtools-core'],
  // Ink's frame builder keeps its line caches from frame to frame (ink-frame-patch.mjs)
  plugins: [inkFramePatch(join(dirname(fileURLToPath(import.meta.resolve('ink'))), '..', 'package.json'))],
  define: { 'process.env.NODE_ENV': '"production"' },
  // Minified (short local names, no comments or indentation): the source V8 holds for lazy
  // compilation shrinks from ~790 KB to ~500 KB and scope data with it (~0.8 MB resident less).
  // ASCII only (esbuild escapes other characters in strings; one in a comment would make V8 keep
  // the whole file as UTF-16). Nothing in the TUI depends on a function's or class's `.name`.
  minify: true,
});
