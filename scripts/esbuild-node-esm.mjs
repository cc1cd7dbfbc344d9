/**
 * The esbuild options both start-up bundles share (bin/scripts/bundle.mjs for the CLI and daemon,
 * ui-tui/scripts/bundle.mjs for the TUI): ESM for Node 20 with lazily loaded chunks, and a real
 * `require` for bundled CommonJS modules that call it.
 */
export const nodeEsmBundle = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: {
    js: "import { createRequire as __hermesRequire } from 'node:module'; const require = __hermesRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
};
