/**
 * Bundles the heavy half of the TUI (dist/app/start.js: Ink, React, Yoga, the app) into
 * dist/bundle/, run after `tsc -b` by `npm run build`. `run.ts` falls back to dist/app/start.js
 * when the bundle is missing or older than it.
 *
 * - `app.js`: one script, the source of an async function (`toAsyncFunctionScript`), not an ES
 *   module: `app-script.ts` compiles it with `vm.Script` and a V8 code cache written beside it on
 *   the first run, so later starts skip parsing and compiling what the first frame runs (Node 20
 *   has no code cache for ES modules). Node's built-ins are `require`d where first used.
 * - `lazy.js`: an ES module with the markdown libraries (marked, marked-terminal, cli-highlight),
 *   loaded when a reply is first shown (`importLazy`); it shares the app's chalk.
 *
 * Loading one bundle instead of a few hundred modules cuts the TUI's start-up (module resolution,
 * CJS export scanning) several times.
 */
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeEsmBundle } from '../../scripts/esbuild-node-esm.mjs';
import {
  inputPausesPlugin,
  lazyRgiEmojiPlugin,
  scriptImportsPlugin,
  sharedChalkPlugin,
  toAsyncFunctionScript,
} from './bundle-plugins.mjs';
import { inkFramePatch } from './ink-frame-patch.mjs';

/** The packages `lazy.js` carries, imported by the app as `import('<name>')`. */
export const LAZY_PACKAGES = ['marked', 'marked-terminal', 'cli-highlight'];

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(pkg, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Minified (short local names, no comments or indentation): less source for V8 to hold for lazy
  // compilation, and scope data with it. ASCII only (esbuild escapes other characters in strings;
  // one in a comment would make V8 keep the whole file as UTF-16). Nothing in the TUI depends on
  // a function's or class's `.name`.
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};

// the app: an entry exporting startTui and the chalk the lazy bundle shares
const app = await build({
  ...common,
  stdin: {
    // evaluated in this order, with a pause for input between the groups (inputPausesPlugin)
    contents: [
      "import 'react';",
      "import 'react-reconciler';",
      "import 'hermes:input-pause/1';",
      "import 'ink';",
      "import 'hermes:input-pause/2';",
      "export { startTui } from './dist/app/start.js';",
      "export { default as chalk } from 'chalk';",
    ].join('\n'),
    resolveDir: pkg,
    sourcefile: 'app-entry.js',
  },
  format: 'esm',
  write: false,
  external: LAZY_PACKAGES,
  define: { ...common.define, 'import.meta.url': 'importMetaUrl' },
  plugins: [
    lazyRgiEmojiPlugin,
    scriptImportsPlugin,
    inputPausesPlugin,
    // Ink's frame builder keeps its line caches from frame to frame (ink-frame-patch.mjs)
    inkFramePatch(join(dirname(fileURLToPath(import.meta.resolve('ink'))), '..', 'package.json')),
  ],
});
writeFileSync(join(outdir, 'app.js'), toAsyncFunctionScript(app.outputFiles[0].text, LAZY_PACKAGES));

// the markdown libraries, one ES module: `default` maps each package name to its namespace
await build({
  ...common,
  ...nodeEsmBundle,
  splitting: false,
  stdin: {
    contents:
      LAZY_PACKAGES.map((p, i) => `import * as m${i} from ${JSON.stringify(p)};`).join('\n') +
      `\nexport default { ${LAZY_PACKAGES.map((p, i) => `${JSON.stringify(p)}: m${i}`).join(', ')} };\n`,
    resolveDir: pkg,
    sourcefile: 'lazy-entry.js',
  },
  outfile: join(outdir, 'lazy.js'),
  minify: true,
  logLevel: 'warning',
  plugins: [lazyRgiEmojiPlugin, sharedChalkPlugin],
});
