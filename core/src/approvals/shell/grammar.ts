/**
 * The bash grammar (tree-sitter-bash, run by web-tree-sitter's WebAssembly runtime), loaded once
 * per process on first use. Loading takes ~30 ms and ~10 MB; it happens when the first command is
 * checked, never at start-up, so `hermes chat` and the TUI do not pay for it unless a command runs.
 *
 * Both wasm files are found through Node's module resolution from this file, so the grammar works
 * from the sources, the compiled packages and the CLI bundle alike (the bundle keeps
 * web-tree-sitter external).
 */
import { createRequire } from 'node:module';
import type { Node, Parser, Tree } from 'web-tree-sitter';

export type { Node, Tree };

let loading: Promise<Parser> | undefined;
let loaded: Parser | undefined;

/**
 * The shared bash parser, loading the grammar on the first call.
 * @throws when the wasm files cannot be found or instantiated (a broken install); callers treat
 *   that as "cannot parse" and fall back to the text patterns.
 */
export function bashParser(): Promise<Parser> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const { Parser, Language } = await import('web-tree-sitter');
    await Parser.init({
      locateFile: (name: string) => require.resolve(`web-tree-sitter/${name}`),
    });
    const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(bash);
    loaded = parser;
    return parser;
  })();
  loading.catch(() => {
    loading = undefined; // a later call tries again
  });
  return loading;
}

/** The parser when `bashParser()` has already loaded it, else undefined (for synchronous callers). */
export function loadedBashParser(): Parser | undefined {
  return loaded;
}
