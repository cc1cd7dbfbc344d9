/**
 * esbuild plugins and steps of the TUI's bundle (scripts/bundle.mjs), kept apart so tests can run
 * them (scripts/bundle-plugins.test.ts).
 */
import { readFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';

/** The RGI emoji test of string-width 8 as published (compiled when the module loads). */
const RGI_LINE = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';

/**
 * The same test, cheap until an emoji can be there: `/^\p{RGI_Emoji}$/v` takes 20–25 ms to compile
 * here, and the TUI's first frame (box-drawing borders, `›`) reached it through Ink's text
 * measuring. Every RGI emoji sequence holds a non-ASCII `Emoji` code point or, for keycaps, U+20E3
 * (with U+FE0F): clusters without one are answered false without the big expression, which is
 * compiled on the first cluster that has one.
 */
const LAZY_RGI = [
  'const mayBeRgiEmoji = /[\\u20E3\\uFE0F]|(?![\\x00-\\x7F])\\p{Emoji}/u;',
  'let rgiEmojiCompiled;',
  'const rgiEmojiRegex = {',
  "\ttest: (segment) => mayBeRgiEmoji.test(segment) && (rgiEmojiCompiled ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(segment),",
  '};',
].join('\n');

/**
 * string-width's source with its RGI emoji expression compiled lazily (see `LAZY_RGI`); other
 * sources (other versions) unchanged.
 * @param source the text of a `string-width/index.js`.
 */
export function lazyRgiEmoji(source) {
  return source.includes(RGI_LINE) ? source.replace(RGI_LINE, () => LAZY_RGI) : source;
}

/** esbuild plugin: `lazyRgiEmoji` applied to every bundled `string-width/index.js`. */
export const lazyRgiEmojiPlugin = {
  name: 'string-width-lazy-rgi-emoji',
  setup(build) {
    build.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => ({
      contents: lazyRgiEmoji(await readFile(args.path, 'utf8')),
      loader: 'js',
    }));
  },
};

const BUILTINS = new Set(builtinModules);

/**
 * Built-ins no first frame uses, loaded on first use of one of their exports rather than when the
 * module importing them is evaluated: the WebSocket library's transport (http, https, net, tls,
 * zlib: ~6–18 ms here), the external editor's and clipboard's `child_process`, signal-exit's
 * `assert`. Their exports are known when bundling (this Node's), each a getter that loads the
 * module; one that exports a function (assert) is a function calling it.
 */
export const DEFERRED_BUILTINS = ['assert', 'child_process', 'dgram', 'http', 'https', 'net', 'tls', 'zlib'];

/** The CommonJS source standing for built-in `spec` in the script bundle. */
export function builtinShim(spec) {
  const name = spec.replace(/^node:/, '');
  const load = `require(${JSON.stringify(spec)})`;
  if (!DEFERRED_BUILTINS.includes(name)) return `module.exports = ${load};`;
  const real = createRequire(import.meta.url)(name);
  const keys = Object.getOwnPropertyNames(real).filter(
    (k) => typeof real !== 'function' || !['length', 'name', 'prototype', 'arguments', 'caller'].includes(k),
  );
  return [
    'let loaded;',
    `const load = () => (loaded ??= ${load});`,
    typeof real === 'function' ? 'const shim = (...args) => load()(...args);' : 'const shim = {};',
    `for (const key of ${JSON.stringify(keys)})`,
    '  Object.defineProperty(shim, key, { get: () => load()[key], enumerable: true, configurable: true });',
    'module.exports = shim;',
  ].join('\n');
}

/**
 * esbuild plugin for a bundle run as a script (no `import` statements): Node's built-in modules
 * become CommonJS `require` calls of the script's `require` (evaluated where first needed, as
 * esbuild wraps CommonJS), and `react-devtools-core` (Ink imports it only with DEV=true; not
 * shipped) a module that throws the not-found error Ink reports.
 */
export const scriptImportsPlugin = {
  name: 'script-imports',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (!BUILTINS.has(name) && !BUILTINS.has(args.path)) return undefined;
      // the shim's own `require` is the script's (esbuild's `__require`)
      if (args.namespace === 'node-builtin') return { path: args.path, external: true };
      return { path: args.path, namespace: 'node-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: builtinShim(args.path),
      loader: 'js',
    }));
    build.onResolve({ filter: /^react-devtools-core$/ }, () => ({
      path: 'react-devtools-core',
      namespace: 'absent',
    }));
    build.onLoad({ filter: /.*/, namespace: 'absent' }, () => ({
      contents:
        "throw Object.assign(new Error('react-devtools-core is not installed'), { code: 'ERR_MODULE_NOT_FOUND' });",
      loader: 'js',
    }));
  },
};

/**
 * esbuild plugin: `chalk` resolves to the app's own instance, which the script's loader publishes
 * under `Symbol.for('hermes.tui.chalk')` before the lazy bundle loads (one colour level for the
 * app, Ink and the markdown renderer, as `applyColorEnv` sets it).
 */
export const sharedChalkPlugin = {
  name: 'shared-chalk',
  setup(build) {
    build.onResolve({ filter: /^chalk$/ }, () => ({ path: 'chalk', namespace: 'shared-chalk' }));
    build.onLoad({ filter: /.*/, namespace: 'shared-chalk' }, () => ({
      contents:
        "const chalk = globalThis[Symbol.for('hermes.tui.chalk')];\n" +
        "if (!chalk) throw new Error('the TUI app publishes its chalk before loading this bundle');\n" +
        'export default chalk;',
      loader: 'js',
    }));
  },
};

/**
 * Turns esbuild's ESM output (no static imports: `scriptImportsPlugin`) into the source of one
 * async function `(require, importLazy, importMetaUrl) => exports`, which `vm.Script` can compile
 * with a code cache (Node 20 has none for ES modules). Top-level `await` stays valid inside it;
 * `import("<lazy>")` of the packages in `lazy` becomes `importLazy("<lazy>")`.
 * @throws Error when the output has an `import` statement, or no single trailing `export { … }`.
 */
export function toAsyncFunctionScript(code, lazy) {
  let body = code;
  for (const spec of lazy)
    body = body.split(`import(${JSON.stringify(spec)})`).join(`importLazy(${JSON.stringify(spec)})`);
  if (/(^|[;}\n])\s*import\s*(["'{*]|[\w$]+\s+from)/.test(body) || /\bimport\(/.test(body)) {
    throw new Error('the script bundle still imports modules: add them to the plugins or the lazy list');
  }
  const m = /export\s*\{([^}]*)\};?\s*$/.exec(body);
  if (!m) throw new Error('the script bundle has no trailing export list');
  const fields = m[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [local, exported = local] = s.split(/\s+as\s+/);
      return `${JSON.stringify(exported)}: ${local}`;
    });
  return `(async function (require, importLazy, importMetaUrl) {${body.slice(0, m.index)}\nreturn { ${fields.join(', ')} };\n})`;
}

/**
 * esbuild plugin: `import 'hermes:input-pause/<n>'` is a module whose top-level await lets the
 * event loop poll for I/O once (a timer, then an immediate). Placed between groups of imports, it
 * splits the app's evaluation into shorter synchronous stretches, so keys typed meanwhile reach
 * the painted first frame (its echo) within a stretch, not after the whole evaluation.
 */
export const inputPausesPlugin = {
  name: 'input-pauses',
  setup(build) {
    build.onResolve({ filter: /^hermes:input-pause\/\d+$/ }, (args) => ({
      path: args.path,
      namespace: 'input-pause',
    }));
    build.onLoad({ filter: /.*/, namespace: 'input-pause' }, () => ({
      contents: 'await new Promise((resolve) => setTimeout(() => setImmediate(resolve), 0));',
      loader: 'js',
    }));
  },
};
