/**
 * The normalising strategies of the `patch` matcher (fuzzy-match.ts) and the guards that refuse
 * a suspicious replacement:
 * - `inline-whitespace`: runs of spaces and tabs count as one space anywhere, also inside a line
 *   and inside a partial line (`foo bar` finds `foo   bar` in `foo   bar baz`); CRLF counts as LF;
 * - `unicode-normalized`: typographic look-alikes count as their ASCII forms (curly quotes, en/em
 *   dashes, `…`, U+2212 minus, no-break, thin and ideographic spaces); a match keeps the file's own
 *   characters wherever the replacement does not change the text (`preserveFileCharacters`);
 * - `rogueIndentError`: a replacement indented deeper than any line of `old_string`, with no line
 *   that opens a block, is a model typo, refused;
 * - `blankAnchorError`: a whitespace-only `old_string` is no anchor, refused.
 */

/** Typographic characters and the ASCII text they count as. */
export const UNICODE_LOOKALIKES: Readonly<Record<string, string>> = {
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u2014': '--',
  '\u2013': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u00a0': ' ',
  '\u2000': ' ',
  '\u2001': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2004': ' ',
  '\u2005': ' ',
  '\u2006': ' ',
  '\u2007': ' ',
  '\u2008': ' ',
  '\u2009': ' ',
  '\u200a': ' ',
  '\u202f': ' ',
  '\u205f': ' ',
  '\u3000': ' ',
};

/** A normalised copy of a text with, per normalised char, the original span it came from. */
export interface Normalized {
  text: string;
  /** Original index where the normalised char at `k` starts. */
  from: number[];
  /** Original index just past the original chars that made the normalised char at `k`. */
  to: number[];
}

/** Collapses runs of spaces/tabs to one space and CRLF to LF, keeping the map to the original. */
export function collapseWhitespace(text: string): Normalized {
  let out = '';
  let lastSpace = false; // whether `out` ends with a space (endsWith would flatten the string each time)
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\r' && text[i + 1] === '\n') continue;
    if (c === ' ' || c === '\t') {
      if (lastSpace && to.at(-1) === i) {
        to[to.length - 1] = i + 1;
        continue;
      }
      out += ' ';
      lastSpace = true;
      from.push(i);
      to.push(i + 1);
      continue;
    }
    out += c;
    lastSpace = false;
    from.push(i);
    to.push(i + 1);
  }
  return { text: out, from, to };
}

/** Replaces typographic look-alikes by their ASCII forms, keeping the map to the original. */
export function foldLookalikes(text: string): Normalized {
  let out = '';
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const r = UNICODE_LOOKALIKES[c] ?? c;
    for (const ch of r) {
      out += ch;
      from.push(i);
      to.push(i + 1);
    }
  }
  return { text: out, from, to };
}

/** Maps `[start, end)` of a normalised text back to the original. */
export function toOriginal(n: Normalized, start: number, end: number): { start: number; end: number } {
  return { start: n.from[start]!, end: n.to[end - 1]! };
}

/** Non-overlapping occurrences of `needle` in `hay`. */
export function occurrences(hay: string, needle: string): number[] {
  const out: number[] = [];
  if (!needle) return out;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

/** Edit operations turning `a` into `b`: runs of equal, deleted and inserted text. */
type Op = { kind: 'equal'; a0: number; a1: number } | { kind: 'insert'; text: string } | { kind: 'delete' };

/** Largest `a.length * b.length` diffed char by char; larger pairs keep only common prefix/suffix. */
const MAX_DIFF_CELLS = 4_000_000;

/** A character diff of `a` → `b` (longest common subsequence; prefix/suffix only when large). */
export function diffChars(a: string, b: string): Op[] {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  const am = a.slice(p, a.length - s);
  const bm = b.slice(p, b.length - s);
  const ops: Op[] = [];
  if (p > 0) ops.push({ kind: 'equal', a0: 0, a1: p });
  if (am.length * bm.length > MAX_DIFF_CELLS || am.length === 0 || bm.length === 0) {
    if (am) ops.push({ kind: 'delete' });
    if (bm) ops.push({ kind: 'insert', text: bm });
  } else {
    const n = am.length;
    const m = bm.length;
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] =
          am[i] === bm[j]
            ? lcs[(i + 1) * w + j + 1]! + 1
            : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    let ins = '';
    const flushIns = (): void => {
      if (ins) ops.push({ kind: 'insert', text: ins });
      ins = '';
    };
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        flushIns();
        const last = ops.at(-1);
        if (last?.kind === 'equal' && last.a1 === p + i) last.a1 += 1;
        else ops.push({ kind: 'equal', a0: p + i, a1: p + i + 1 });
        i++;
        j++;
      } else if (j < m && (i === n || lcs[i * w + j + 1]! >= lcs[(i + 1) * w + j]!)) {
        ins += bm[j];
        j++;
      } else {
        flushIns();
        if (ops.at(-1)?.kind !== 'delete') ops.push({ kind: 'delete' });
        i++;
      }
    }
    flushIns();
  }
  if (s > 0) {
    const last = ops.at(-1);
    if (last?.kind === 'equal' && last.a1 === a.length - s) last.a1 = a.length;
    else ops.push({ kind: 'equal', a0: a.length - s, a1: a.length });
  }
  return ops;
}

/**
 * The replacement for a span matched by `unicode-normalized`: the edit that turns `oldString`
 * into `newString` (both as the model wrote them, ASCII forms) applied to the file's own text, so
 * characters the edit does not touch keep their typographic form (an em dash stays an em dash).
 * @returns `newString` unchanged when the span does not fold to `oldString`'s folded text.
 */
export function preserveFileCharacters(matched: string, oldString: string, newString: string): string {
  const file = foldLookalikes(matched);
  const old = foldLookalikes(oldString).text;
  if (file.text !== old) return newString;
  let out = '';
  for (const op of diffChars(old, newString)) {
    if (op.kind === 'insert') out += op.text;
    if (op.kind !== 'equal') continue;
    // whole original chars inside the run keep their form; a look-alike cut by the run's edge
    // contributes only the folded part the run covers
    let k = op.a0;
    while (k < op.a1) {
      const o = file.from[k]!;
      let e = k;
      while (e < file.text.length && file.from[e] === o) e++;
      if ((k === 0 || file.from[k - 1] !== o) && e <= op.a1) {
        out += matched.slice(o, file.to[k]!);
        k = e;
      } else {
        out += file.text[k];
        k++;
      }
    }
  }
  return out;
}

const leading = (line: string): number => /^[ \t]*/.exec(line)![0].length;
const OPENS_BLOCK = /[:{([]\s*$/;

/**
 * The refusal of a replacement indented deeper than any non-blank line of `oldString` when
 * neither text opens a nested block (a line ending in `:`, `{`, `(` or `[`): after a
 * whitespace-tolerant match such a line is a model typo that would be written as is.
 * @returns the message for the model, or undefined when the indentation is plausible.
 */
export function rogueIndentError(oldString: string, newString: string): string | undefined {
  const oldLines = oldString.split(/\r?\n/).filter((l) => l.trim());
  const newLines = newString.split(/\r?\n/).filter((l) => l.trim());
  if (oldLines.length === 0 || newLines.length === 0) return undefined;
  if ([...oldLines, ...newLines].some((l) => OPENS_BLOCK.test(l))) return undefined;
  const maxOld = Math.max(...oldLines.map(leading));
  const deeper = newLines.filter((l) => leading(l) > maxOld);
  if (deeper.length === 0) return undefined;
  return (
    `new_string has ${deeper.length} line(s) indented deeper (${leading(deeper[0]!)} columns) than any line of ` +
    `old_string (at most ${maxOld}), and no line opens a block — likely an indentation typo: ` +
    `${JSON.stringify(deeper[0]!.trim().slice(0, 60))}. Nothing was changed. Re-read the lines with read_file ` +
    'and send new_string with the indentation the file uses there; to add a nested block, include the line ' +
    'that opens it.'
  );
}

/** The refusal of a whitespace-only `old_string`, or undefined. */
export function blankAnchorError(oldString: string): string | undefined {
  if (oldString.trim() !== '') return undefined;
  return (
    'old_string is only whitespace, which matches blank space all over the file and says nothing about ' +
    'where to edit. Nothing was changed. Put the non-blank line(s) next to the place to change in ' +
    'old_string (copied from read_file), and the same lines with your change in new_string.'
  );
}
