/**
 * A change to Ink's frame builder (ink/build/output.js), applied when the TUI is bundled.
 *
 * Every frame Ink builds a grid of cells for the live part of the screen (one new object per
 * cell), places each line of text into it as styled characters (an ANSI tokenizer and a
 * string-width per character, through caches made new for each frame), and turns each row back
 * into text, diffing the styles of every two neighbouring cells (three Sets and four arrays per
 * cell). While a reply streams a frame is built every ~33 ms, and almost all of its rows (the
 * composer, the status bar, the reply's earlier lines) are the same as in the frame before: a CPU
 * profile of the streaming TUI had this as about half its busy time and most of its garbage.
 *
 * The patched `Output.get` builds the same text row by row:
 * - A row's text depends only on the frame's width and the writes that touch it, in order (each a
 *   column and a line of text, clipped and transformed). That list (each line after its length,
 *   so no text can pass for two writes) is the row's key: a row whose
 *   key was seen before takes its text from a cache without building cells; only new rows are
 *   built, on one row of cells.
 * - The tokenizing and width caches are kept from frame to frame, and a line clipped by a box
 *   (`overflow: hidden`) is cut once for the same line and bounds (`sliceAnsi` tokenizes it anew).
 * - Blank cells share one frozen cell (Ink reads cells and replaces them; it never changes one).
 * - A row is turned into text without diffing neighbouring cells whose styles are the same
 *   (`styledRowToString`).
 * All caches are shared by the process and dropped whole once they hold more than
 * `MAX_CACHED_LINES` entries, so they stay bounded.
 *
 * Measured with `npm run bench -- --filter tui.stream.cpu_per_s` and a `--cpu-prof` of the TUI
 * (bench/README.md). The patch is tied to the Ink version and the exact source it was written for
 * (a hash of `get`): another version or changed source fails the build naming this file (re-check
 * the change against the new output.js, then update `INK_VERSION` and `GET_SHA256`).
 * tests/ink-frame-patch.test.ts builds frames with both and requires them identical.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { INK_CACHE_PATCHES } from './ink-cache-patch.mjs';

/** The Ink version whose output.js this patch was written for. */
export const INK_VERSION = '6.8.0';
/** sha256 of Ink's `Output.get` (from `    get() {` to the end of the class) as 6.8.0 ships it. */
const GET_SHA256 = '836b512fbfbec5dc288acf2974859e22878d5e802be598a060a34e98aeb99987';
/**
 * Entries each shared cache holds before it is dropped and started again (a frame of the live
 * part has tens of rows; printed blocks pass through once). At most a few MB.
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
const IMPORTS =
  "import { styledCharsFromTokens, styledCharsToString, tokenize, } from '@alcalzone/ansi-tokenize';\n";
const IMPORTS_PATCHED =
  "import { ansiCodesToString, diffAnsiCodes, styledCharsFromTokens, tokenize, } from '@alcalzone/ansi-tokenize';\n";
const CLASS = 'export default class Output {\n';
const GET_START = '    get() {\n';
const FILE_END = '//# sourceMappingURL=output.js.map';

/** What the patched file adds before the class: shared caches and the row builder. */
const SHARED = `// Kept across frames (ui-tui/scripts/ink-frame-patch.mjs)
const MAX_CACHED_LINES = ${MAX_CACHED_LINES};
let sharedOutputCaches = new OutputCaches();
let rowTexts = new Map();
let slicedLines = new Map();
const BLANK_CELL = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });
function sameStyles(a, b) {
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
        if (a[i] !== b[i] && (a[i].code !== b[i].code || a[i].endCode !== b[i].endCode)) return false;
    }
    return true;
}
// styledCharsToString of @alcalzone/ansi-tokenize, without diffing cells whose styles are the same
function styledRowToString(chars) {
    let ret = '';
    for (let i = 0; i < chars.length; i++) {
        const char = chars[i];
        if (i === 0) {
            if (char.styles.length > 0) ret += ansiCodesToString(char.styles);
        } else if (!sameStyles(chars[i - 1].styles, char.styles)) {
            ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));
        }
        ret += char.value;
        if (i === chars.length - 1 && char.styles.length > 0) {
            ret += ansiCodesToString(diffAnsiCodes(char.styles, []));
        }
    }
    return ret;
}
`;

/** Ink's \`get\`, row by row with a cache of row texts (see the file comment). */
const GET = `    get() {
        const width = this.width;
        // per row: its writes in order, [x, line, x, line, …], and their key
        const rowWrites = [];
        const rowKeys = [];
        for (let y = 0; y < this.height; y++) {
            rowWrites.push(null);
            rowKeys.push('');
        }
        const clips = [];
        for (const operation of this.operations) {
            if (operation.type === 'clip') {
                clips.push(operation.clip);
            }
            if (operation.type === 'unclip') {
                clips.pop();
            }
            if (operation.type === 'write') {
                const { text, transformers } = operation;
                let { x, y } = operation;
                let lines = text.split('\\n');
                const clip = clips.at(-1);
                if (clip) {
                    const clipHorizontally = typeof clip?.x1 === 'number' && typeof clip?.x2 === 'number';
                    const clipVertically = typeof clip?.y1 === 'number' && typeof clip?.y2 === 'number';
                    if (clipHorizontally) {
                        const width = this.caches.getWidestLine(text);
                        if (x + width < clip.x1 || x > clip.x2) {
                            continue;
                        }
                    }
                    if (clipVertically) {
                        const height = lines.length;
                        if (y + height < clip.y1 || y > clip.y2) {
                            continue;
                        }
                    }
                    if (clipHorizontally) {
                        lines = lines.map(line => {
                            const from = x < clip.x1 ? clip.x1 - x : 0;
                            const width = this.caches.getStringWidth(line);
                            const to = x + width > clip.x2 ? clip.x2 - x : width;
                            const key = from + ',' + to + ',' + line;
                            let sliced = slicedLines.get(key);
                            if (sliced === undefined) {
                                if (slicedLines.size > 4 * MAX_CACHED_LINES) slicedLines = new Map();
                                sliced = sliceAnsi(line, from, to);
                                slicedLines.set(key, sliced);
                            }
                            return sliced;
                        });
                        if (x < clip.x1) {
                            x = clip.x1;
                        }
                    }
                    if (clipVertically) {
                        const from = y < clip.y1 ? clip.y1 - y : 0;
                        const height = lines.length;
                        const to = y + height > clip.y2 ? clip.y2 - y : height;
                        lines = lines.slice(from, to);
                        if (y < clip.y1) {
                            y = clip.y1;
                        }
                    }
                }
                let offsetY = 0;
                for (let [index, line] of lines.entries()) {
                    const row = y + offsetY;
                    // a row outside the frame: Ink skips it and all the write's lines after it
                    if (!(row >= 0 && row < rowWrites.length) || !Number.isInteger(row)) {
                        continue;
                    }
                    for (const transformer of transformers) {
                        line = transformer(line, index);
                    }
                    (rowWrites[row] ??= []).push(x, line);
                    rowKeys[row] += x + ',' + line.length + ',' + line;
                    offsetY++;
                }
            }
        }
        if (rowTexts.size > MAX_CACHED_LINES) {
            rowTexts = new Map();
        }
        const generated = [];
        for (let y = 0; y < rowWrites.length; y++) {
            const writes = rowWrites[y];
            if (writes === null) {
                generated.push('');
                continue;
            }
            const key = width + ';' + rowKeys[y];
            let text = rowTexts.get(key);
            if (text === undefined) {
                text = this.buildRow(writes);
                rowTexts.set(key, text);
            }
            generated.push(text);
        }
        return {
            output: generated.join('\\n'),
            height: rowWrites.length,
        };
    }
    // one row of Ink's grid: blank cells, the writes placed in order, then its text
    buildRow(writes) {
        const currentLine = [];
        for (let x = 0; x < this.width; x++) {
            currentLine.push(BLANK_CELL);
        }
        for (let w = 0; w < writes.length; w += 2) {
            const characters = this.caches.getStyledChars(writes[w + 1]);
            let offsetX = writes[w];
            for (const character of characters) {
                currentLine[offsetX] = character;
                // Determine printed width using string-width to align with measurement
                const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));
                // For multi-column characters, clear following cells to avoid stray spaces/artifacts
                if (characterWidth > 1) {
                    for (let index = 1; index < characterWidth; index++) {
                        currentLine[offsetX + index] = {
                            type: 'char',
                            value: '',
                            fullWidth: false,
                            styles: character.styles,
                        };
                    }
                }
                offsetX += characterWidth;
            }
        }
        // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
        const lineWithoutEmptyItems = currentLine.filter(item => item !== undefined);
        return styledRowToString(lineWithoutEmptyItems).trimEnd();
    }
}
`;

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
  const start = source.indexOf(GET_START);
  const end = source.indexOf(FILE_END);
  const get = start >= 0 && end > start ? source.slice(start, end) : '';
  if (createHash('sha256').update(get).digest('hex') !== GET_SHA256) {
    throw new Error(
      'ui-tui/scripts/ink-frame-patch.mjs: Output.get in ink/build/output.js is not the one the patch was written for; re-check the patch against this Ink version',
    );
  }
  let out = source.slice(0, start) + GET + source.slice(end);
  out = replaceOnce(out, CACHES, CACHES_SHARED);
  out = replaceOnce(out, IMPORTS, IMPORTS_PATCHED);
  return replaceOnce(out, CLASS, SHARED + CLASS);
}

/** Ink's build files the bundle patches: output.js here, the text caches in ink-cache-patch.mjs. */
const PATCHES = { 'output.js': patchInkOutput, ...INK_CACHE_PATCHES };

/**
 * An esbuild plugin that loads Ink's build files patched (output.js: see the file comment; the
 * text caches: ink-cache-patch.mjs).
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
      const patched = new Set();
      const files = Object.keys(PATCHES).map((f) => f.replace(/\./g, '\\.'));
      const filter = new RegExp(`[\\\\/]ink[\\\\/]build[\\\\/](${files.join('|')})$`);
      build.onLoad({ filter }, (args) => {
        const file = basename(args.path);
        patched.add(file);
        return { contents: PATCHES[file](readFileSync(args.path, 'utf8')), loader: 'js' };
      });
      build.onEnd((result) => {
        const missing = Object.keys(PATCHES).filter((f) => !patched.has(f));
        if (missing.length > 0 && result.errors.length === 0) {
          throw new Error(
            `ui-tui/scripts/ink-frame-patch.mjs: ink/build/${missing.join(', ')} not in the bundle`,
          );
        }
      });
    },
  };
}
