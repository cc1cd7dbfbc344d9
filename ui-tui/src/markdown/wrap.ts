/**
 * Text of rendered markdown fitted to a width: words wrapped (a word longer than the width is cut),
 * styles kept, wide characters counted as two columns.
 */
import wrapAnsi from 'wrap-ansi';

/** Printable ASCII only: one column a character, no styles. */
const PLAIN = /^[\x20-\x7e]*$/;

/**
 * `text` (may carry SGR styles) wrapped to `width` columns (at least 1). A `\r` or `\n` in it is a
 * line break of its own; lines keep no spaces at their ends. Ends without a newline.
 */
export function wrapText(text: string, width: number): string {
  const w = Math.max(1, Math.floor(width));
  return (
    text
      .split(/\r\n?|\n/)
      // printable ASCII (no styles, one column a character) is wrapped here, several times faster
      .map((line) => (PLAIN.test(line) ? wrapPlain(line, w) : wrapAnsi(line, w, { hard: true })))
      .join('\n')
  );
}

/**
 * `wrapText` of one line of printable ASCII, as wrap-ansi (`hard`, trimmed) wraps it: words
 * greedily; a word longer than the width starts on the current line when that takes no more
 * lines, and is cut at the width.
 */
function wrapPlain(line: string, w: number): string {
  if (line.length <= w) return line.trim();
  const rows: string[] = [];
  let row = '';
  const words = line.split(' ');
  words.forEach((word, index) => {
    row = row.trimStart();
    if (index !== 0 && row.length > 0) row += ' ';
    if (word.length > w) {
      const thisLine = 1 + Math.floor((word.length - (w - row.length) - 1) / w);
      const nextLine = Math.floor((word.length - 1) / w);
      if (nextLine < thisLine) {
        rows.push(row);
        row = '';
      }
      let at = 0;
      while (at < word.length) {
        if (row.length >= w) {
          rows.push(row);
          row = '';
        }
        const take = Math.min(w - row.length, word.length - at);
        row += word.slice(at, at + take);
        at += take;
        if (at < word.length) {
          rows.push(row);
          row = '';
        }
      }
      return;
    }
    if (row.length + word.length > w && row.length > 0 && word.length > 0) {
      rows.push(row);
      row = '';
    }
    row += word;
  });
  rows.push(row);
  return rows.map((r) => r.trimEnd()).join('\n');
}

/** `lines` joined, the first after `first`, the others after `rest`; empty lines stay empty. */
export function hang(lines: string[], first: string, rest: string): string {
  return lines.map((l, i) => (l === '' ? '' : (i === 0 ? first : rest) + l)).join('\n');
}
