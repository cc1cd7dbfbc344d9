/**
 * Styles that span a line break, made line-local. marked-terminal wraps a paragraph after
 * styling it, so a bold span cut by the wrap opens on one line (`…with ESC[1m`) and closes on the
 * next (`bold wordsESC[22m`). Ink draws each line on its own and the second line loses the bold.
 * `carryStyles` closes what is still open at each line end and opens it again at the start of the
 * next line.
 */

const ESC = '\u001b';
const SGR = new RegExp(`${ESC}\\[([0-9;]*)m`, 'g');

/** The code that ends an SGR opening code, or null when `code` ends styles itself. */
function closerOf(code: string): string | null {
  const first = Number(code.split(';')[0] || '0');
  if (first === 0) return null;
  if (first === 1 || first === 2) return '22';
  if (first === 3) return '23';
  if (first === 4) return '24';
  if (first === 7) return '27';
  if (first === 8) return '28';
  if (first === 9) return '29';
  if ((first >= 30 && first <= 38) || (first >= 90 && first <= 97)) return '39';
  if ((first >= 40 && first <= 48) || (first >= 100 && first <= 107)) return '49';
  return null;
}

/** Whether `code` is a closing (or reset) code. */
function isCloser(code: string): boolean {
  const first = Number(code.split(';')[0] || '0');
  return first === 0 || (first >= 21 && first <= 29) || first === 39 || first === 49;
}

/**
 * Makes every line of ANSI text carry its own styles: a style open at a line break is closed at
 * the end of that line and re-opened at the start of the next one. Text without escape codes
 * comes back unchanged.
 */
export function carryStyles(text: string): string {
  if (!text.includes(ESC)) return text;
  let open: string[] = []; // opening codes in force, oldest first
  return text
    .split('\n')
    .map((line) => {
      const prefix = open.map((c) => `${ESC}[${c}m`).join('');
      for (const m of line.matchAll(SGR)) {
        const code = m[1] ?? '';
        if (isCloser(code)) {
          const first = Number(code.split(';')[0] || '0');
          open = first === 0 ? [] : open.filter((o) => closerOf(o) !== String(first));
        } else if (closerOf(code) !== null) {
          // a new colour replaces the colour in force (same closer), other attributes stack
          const closer = closerOf(code);
          open = open.filter((o) => closerOf(o) !== closer || closer === '22').concat(code);
        }
      }
      // trailing opens with nothing after them move to the next line whole
      const body = line.replace(new RegExp(`(?:${ESC}\\[[0-9;]*m)+$`), (tail) =>
        [...tail.matchAll(SGR)].every((m) => !isCloser(m[1] ?? '')) ? '' : tail,
      );
      const suffix = [...new Set(open.map((c) => closerOf(c)))]
        .reverse()
        .map((c) => `${ESC}[${c}m`)
        .join('');
      return prefix + body + suffix;
    })
    .join('\n');
}
