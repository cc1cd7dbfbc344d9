/**
 * Bounds on Ink's text caches, applied when the TUI is bundled (with ink-frame-patch.mjs, through
 * the same esbuild plugin).
 *
 * Ink 6.8 measures and wraps each text node through two module caches that are never emptied:
 * measure-text.js (a Map from text to its size) and wrap-text.js (an object from text + width +
 * wrap mode to the wrapped text). Every text it ever lays out stays: each frame of a streaming
 * reply's live part (a new, longer text every ~33 ms), each printed reply, each state of the
 * composer's draft, each status bar with a new elapsed time. A TUI left running for a day keeps
 * growing. And render-node-to-output.js measures each text node's widest line again every frame,
 * uncached (the largest single cost of a streaming frame left after ink-frame-patch.mjs).
 *
 * - Both caches become a `BoundedTextCache`: two generations of entries; a hit in the older one
 *   moves to the newer; once the newer holds `MAX_TEXT_CACHE_ENTRIES` entries or
 *   `MAX_TEXT_CACHE_CHARS` chars of keys and values, it becomes the older and the older is
 *   dropped. What is used frame after frame stays cached; memory stays bounded (two generations).
 * - render-node-to-output.js takes a text's widest line from measure-text's cache (the same
 *   `widestLine` of the same text).
 * - wrap-text.js's key puts the width and mode first, each ended by a comma: Ink ran the text and
 *   the width together, so "v1" wrapped at 18 columns and "v11" at 8 shared a key ("v118wrap") and
 *   the second was drawn with the first one's lines.
 *
 * tests/ink-cache-patch.test.ts runs the patched modules against Ink's own on the same texts and
 * checks the bound. Tied to the Ink version of ink-frame-patch.mjs: a source that does not match
 * fails the build naming this file.
 */

/** Entries in a cache's newer generation before it turns over. */
export const MAX_TEXT_CACHE_ENTRIES = 1_000;
/** Chars (keys and values) in a cache's newer generation before it turns over: ~1 MB as UTF-16. */
export const MAX_TEXT_CACHE_CHARS = 512 * 1024;

const BOUNDED_CACHE = `// Bounded (ui-tui/scripts/ink-cache-patch.mjs): two generations, the older dropped at turnover
class BoundedTextCache {
    newer = new Map();
    older = new Map();
    chars = 0;
    get(key) {
        const hit = this.newer.get(key);
        if (hit !== undefined) return hit;
        const old = this.older.get(key);
        if (old !== undefined) this.set(key, old);
        return old;
    }
    set(key, value) {
        if (this.newer.size >= ${MAX_TEXT_CACHE_ENTRIES} || this.chars >= ${MAX_TEXT_CACHE_CHARS}) {
            this.older = this.newer;
            this.newer = new Map();
            this.chars = 0;
        }
        this.newer.set(key, value);
        this.chars += key.length + (typeof value === 'string' ? value.length : 0);
    }
}
`;

/** Replaces the one occurrence of `from` in `source`; throws naming the patch and file when it is not there once. */
function replaceOnce(file, source, from, to) {
  const at = source.indexOf(from);
  if (at < 0 || source.indexOf(from, at + 1) >= 0) {
    throw new Error(
      `ui-tui/scripts/ink-cache-patch.mjs: ink/build/${file} does not contain ${JSON.stringify(from)} exactly once; re-check the patch against this Ink version`,
    );
  }
  return source.slice(0, at) + to + source.slice(at + from.length);
}

/**
 * The patched source of ink/build/measure-text.js (its cache bounded).
 * @throws Error when the text is not what the patch was written for.
 */
export function patchInkMeasureText(source) {
  return replaceOnce(
    'measure-text.js',
    source,
    'const cache = new Map();\n',
    `${BOUNDED_CACHE}const cache = new BoundedTextCache();\n`,
  );
}

/**
 * The patched source of ink/build/wrap-text.js (its cache bounded, its key unambiguous).
 * @throws Error when the text is not what the patch was written for.
 */
export function patchInkWrapText(source) {
  let out = replaceOnce(
    'wrap-text.js',
    source,
    'const cache = {};\n',
    `${BOUNDED_CACHE}const cache = new BoundedTextCache();\n`,
  );
  // Ink's key ran the text and the width together: "v1" at 18 columns and "v11" at 8 were one key
  // ("v118wrap"), and the second text got the first one's lines; the width and mode go first,
  // each ended by a comma (neither holds one), so no two calls share a key
  out = replaceOnce(
    'wrap-text.js',
    out,
    'const cacheKey = text + String(maxWidth) + String(wrapType);',
    "const cacheKey = String(maxWidth) + ',' + String(wrapType) + ',' + text;",
  );
  out = replaceOnce(
    'wrap-text.js',
    out,
    'const cachedText = cache[cacheKey];',
    'const cachedText = cache.get(cacheKey);',
  );
  return replaceOnce(
    'wrap-text.js',
    out,
    'cache[cacheKey] = wrappedText;',
    'cache.set(cacheKey, wrappedText);',
  );
}

/**
 * The patched source of ink/build/render-node-to-output.js (a text's widest line from
 * measure-text's cache).
 * @throws Error when the text is not what the patch was written for.
 */
export function patchInkRenderNode(source) {
  const file = 'render-node-to-output.js';
  const out = replaceOnce(
    file,
    source,
    "import wrapText from './wrap-text.js';\n",
    "import wrapText from './wrap-text.js';\nimport measureText from './measure-text.js';\n",
  );
  return replaceOnce(
    file,
    out,
    'const currentWidth = widestLine(text);',
    'const currentWidth = measureText(text).width;',
  );
}

/** The Ink build files this patch changes, each with its patch. */
export const INK_CACHE_PATCHES = {
  'measure-text.js': patchInkMeasureText,
  'wrap-text.js': patchInkWrapText,
  'render-node-to-output.js': patchInkRenderNode,
};
