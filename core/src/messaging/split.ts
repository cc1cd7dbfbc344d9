/**
 * Splitting a reply to a platform's message length limit. Cuts prefer a
 * paragraph break, then a line break, then a space, in the second half of the window; a word
 * longer than the limit is cut hard. Never splits a surrogate pair.
 */

/**
 * Splits `text` into chunks of at most `max` characters (UTF-16 code units, what most platform
 * limits count).
 * @param max 0 or less: no limit (one chunk).
 * @returns the chunks without the whitespace at the cut points; `[]` for blank text.
 */
export function splitMessage(text: string, max: number): string[] {
  const t = text.replace(/\s+$/, '');
  if (!t.trim()) return [];
  if (max <= 0 || t.length <= max) return [t];
  const out: string[] = [];
  let rest = t;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = -1;
    for (const sep of ['\n\n', '\n', ' ']) {
      const i = window.lastIndexOf(sep, max);
      if (i >= Math.floor(max / 2)) {
        cut = i;
        break;
      }
    }
    let next: number;
    if (cut === -1) {
      cut = max;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1; // keep a surrogate pair together
      next = cut;
    } else {
      next = cut;
    }
    const chunk = rest.slice(0, cut).replace(/\s+$/, '');
    if (chunk) out.push(chunk);
    rest = rest.slice(next).replace(/^\s+/, '');
  }
  if (rest) out.push(rest);
  return out;
}
