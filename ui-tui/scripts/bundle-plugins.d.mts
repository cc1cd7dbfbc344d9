// Types of bundle-plugins.mjs (for its test, ui-tui/src/bundle-plugins.test.ts).
import type { Plugin } from 'esbuild';

/** string-width's source with its RGI emoji expression compiled lazily; other sources unchanged. */
export function lazyRgiEmoji(source: string): string;
/** esbuild plugin: `lazyRgiEmoji` applied to every bundled `string-width/index.js`. */
export const lazyRgiEmojiPlugin: Plugin;
/** esbuild plugin: Node built-ins as `require` calls; `react-devtools-core` a module that throws. */
export const scriptImportsPlugin: Plugin;
/** esbuild plugin: `chalk` is the app's instance, published under `Symbol.for('hermes.tui.chalk')`. */
export const sharedChalkPlugin: Plugin;
/** esbuild's ESM output as the source of `async (require, importLazy, importMetaUrl) => exports`. */
export function toAsyncFunctionScript(code: string, lazy: readonly string[]): string;
/** Built-ins loaded on the first use of one of their exports in the script bundle. */
export const DEFERRED_BUILTINS: readonly string[];
/** The CommonJS source standing for built-in `spec` in the script bundle. */
export function builtinShim(spec: string): string;
/** esbuild plugin: `hermes:input-pause/<n>` modules, each a top-level await that polls for input once. */
export const inputPausesPlugin: Plugin;
