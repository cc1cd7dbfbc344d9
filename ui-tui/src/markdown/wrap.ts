/**
 * Text of rendered markdown fitted to a width: words wrapped (a word longer than the width is cut),
 * styles kept, wide characters counted as two columns.
 */
import wrapAnsi from 'wrap-ansi';

/**
 * `text` (may carry SGR styles) wrapped to `width` columns (at least 1). A `\r` or `\n` in it is a
 * line break of its own; lines keep no spaces at their ends. Ends without a newline.
 */
export function wrapText(text: string, width: number): string {
  const w = Math.max(1, Math.floor(width));
  return text
    .split(/\r\n?|\n/)
    .map((line) => wrapAnsi(line, w, { hard: true }))
    .join('\n');
}

/** `lines` joined, the first after `first`, the others after `rest`; empty lines stay empty. */
export function hang(lines: string[], first: string, rest: string): string {
  return lines.map((l, i) => (l === '' ? '' : (i === 0 ? first : rest) + l)).join('\n');
}
