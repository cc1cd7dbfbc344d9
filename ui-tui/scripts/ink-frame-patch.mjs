/**
 * Two changes to Ink's frame builder (ink/build/output.js), applied when the TUI is bundled.
 *
 * Every frame Ink builds a grid of cells for the live part of the screen: one new object per cell
 * (`{type, value: ' ', fullWidth, styles: []}`), then each line of text is split into styled
 * characters (an ANSI tokenizer and a string-width per character) through caches that are made new
 * for each frame. While a reply streams, a frame is built every ~33 ms and most of its lines (the
 * composer, the status bar, the reply's earlier lines) are the same as in the frame before; a CPU
 * profile of the TUI showed this as about half its busy time and most of its garbage.
 *
 * - The caches are kept from frame to frame (one set per process, dropped whole once they hold
 *   more than `MAX_CACHED_LINES` lines or blocks, so they stay bounded): an unchanged line is
 *   tokenized once.
 * - The cells of empty space share one frozen blank cell. Ink reads cells and replaces them in
 *   their row; it never changes one, and a frozen one would throw if it did.
 * - A row is turned into text without diffing the styles of two neighbouring cells that have the
 *   same ones (`styledRowToString`): Ink's `styledCharsToString` diffs every pair through three
 *   Sets and four arrays, which was the largest share of the frame's time and garbage left.
 *
 * Measured with `npm run bench -- --filter tui.stream.cpu_per_s` and a `--cpu-prof` of the TUI
 * (bench/README.md): a frame of the streaming TUI went from a median of 4.9 ms to 2.7 ms and the
 * collector's time fell by half. The patch is tied to the Ink version it was written for: another
 * version, or source that no longer matches, fails the build with this file's name (re-check the
 * change against the new output.js, then update `INK_VERSION`).
 */
import { readFileSync } from 'node:fs';

/** The Ink version whose output.js this patch was written for. */
export const INK_VERSION = '6.8.0';
/**
 * Lines the shared caches hold before they are dropped and started again (a frame of the live
 * part has tens of lines; printed blocks pass through once). About 120 cell objects per line: at
 * most a few MB.
 */
export const MAX_CACHED_LINES = 300;

const CACHES = '    caches = new OutputCaches();\n';
const CACHES_SHARED = [
  '    caches = sharedOutputCaches.styledChars.size > MAX_CACHED_LINES ||',
  '        sharedOutputCaches.blockWidths.size > MAX_CACHED_LINES ||',
  '        sharedOutputCaches.widths.size > 10 * MAX_CACHED_LINES',
  '        ? (sharedOutputCaches = new OutputCaches())',
  '        : sharedOutputCaches;',
  '',
].join('\n');
const BLANK_CELL = [
  '                row.push({',
  "                    type: 'char',",
  "                    value: ' ',",
  '                    fullWidth: false,',
  '                    styles: [],',
  '                });',
  '',
].join('\n');
const CLASS = 'export default class Output {\n';
const ROW_TO_STRING = '            return styledCharsToString(lineWithoutEmptyItems).trimEnd();\n';
const IMPORTS = "import { styledCharsFromTokens, styledCharsToString, tokenize, } from '@alcalzone/ansi-tokenize';\n";
/**
 * A row of cells to text: `styledCharsToString` of @alcalzone/ansi-tokenize, except that a cell
 * whose styles equal the previous cell's (code for code) adds no escape codes without asking
 * `diffAnsiCodes` (which builds three Sets and four arrays per cell, whatever the styles).
 */
const ROW_FUNCTION = [
  'function sameStyles(a, b) {',
  '    if (a === b) return true;',
  '    if (a.length !== b.length) return false;',
  '    for (let i = 0; i < a.length; i++) {',
  '        if (a[i] !== b[i] && (a[i].code !== b[i].code || a[i].endCode !== b[i].endCode)) return false;',
  '    }',
  '    return true;',
  '}',
  'function styledRowToString(chars) {',
  "    let ret = '';",
  '    for (let i = 0; i < chars.length; i++) {',
  '        const char = chars[i];',
  '        if (i === 0) {',
  '            if (char.styles.length > 0) ret += ansiCodesToString(char.styles);',
  '        } else if (!sameStyles(chars[i - 1].styles, char.styles)) {',
  '            ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));',
  '        }',
  '        ret += char.value;',
  '        if (i === chars.length - 1 && char.styles.length > 0) {',
  '            ret += ansiCodesToString(diffAnsiCodes(char.styles, []));',
  '        }',
  '    }',
  '    return ret;',
  '}',
  '',
].join('\n');
const SHARED = [
  '// Kept across frames (ui-tui/scripts/ink-frame-patch.mjs)',
  `const MAX_CACHED_LINES = ${MAX_CACHED_LINES};`,
  'let sharedOutputCaches = new OutputCaches();',
  "const BLANK_CELL = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });",
  '',
].join('\n');

/** Replaces the one occurrence of `from` in `source`; throws naming the patch when it is not there once. */
function replaceOnce(source, from, to) {
  const at = source.indexOf(from);
  if (at < 0 || source.indexOf(from, at + 1) >= 0) {
    throw new Error(
      `ui-tui/scripts/ink-frame-patch.mjs: ink/build/output.js does not contain ${JSON.stringify(from.trim().split('\n')[0])} exactly once; re-check the patch against this Ink version`,
    );
  }
  return source.slice(0, at) + to + source.slice(at + from.length);
}

/**
 * The patched source of ink/build/output.js.
 * @param source the file's text as Ink ships it.
 * @throws Error when the text is not what the patch was written for.
 */
export function patchInkOutput(source) {
  let out = replaceOnce(source, CACHES, CACHES_SHARED);
  out = replaceOnce(out, BLANK_CELL, '                row.push(BLANK_CELL);\n');
  out = replaceOnce(out, ROW_TO_STRING, '            return styledRowToString(lineWithoutEmptyItems).trimEnd();\n');
  out = replaceOnce(
    out,
    IMPORTS,
    `${IMPORTS}import { ansiCodesToString, diffAnsiCodes } from '@alcalzone/ansi-tokenize';\n`,
  );
  return replaceOnce(out, CLASS, SHARED + ROW_FUNCTION + CLASS);
}

/**
 * An esbuild plugin that loads ink/build/output.js patched (see the file comment).
 * @param inkPackageJson path of Ink's package.json (its version is checked against INK_VERSION).
 */
export function inkFramePatch(inkPackageJson) {
  return {
    name: 'ink-frame-patch',
    setup(build) {
      const { version } = JSON.parse(readFileSync(inkPackageJson, 'utf8'));
      if (version !== INK_VERSION) {
        throw new Error(
          `ui-tui/scripts/ink-frame-patch.mjs: written for ink ${INK_VERSION}, found ${version}; re-check the patch against its output.js`,
        );
      }
      let patched = false;
      build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]output\.js$/ }, (args) => {
        patched = true;
        return { contents: patchInkOutput(readFileSync(args.path, 'utf8')), loader: 'js' };
      });
      build.onEnd((result) => {
        if (!patched && result.errors.length === 0) {
          throw new Error('ui-tui/scripts/ink-frame-patch.mjs: ink/build/output.js was not in the bundle');
        }
      });
    },
  };
}
