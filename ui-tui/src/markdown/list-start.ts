/**
 * The numbers of ordered lists. marked-terminal numbers every ordered list from 1, so `3. third`
 * (a list continued after a paragraph, or the items of one list printed as separate parts while
 * a reply streams) showed as `1. third`, and it counts the items of a nested ordered list into
 * the outer one (`1. a`, two nested items, then `3. b`); its output is renumbered here.
 */

/**
 * marked-terminal's rendering of one ordered list with its own items numbered `start`, `start + 1`
 * and so on. Its items are the lines indented by exactly `tab` spaces and a number; the lines
 * under an item (continued text, nested lists) keep their place under the text of the item when
 * its number gets longer.
 * @param out the list as marked-terminal rendered it (every line indented by `tab` spaces).
 * @param start the number of the first item (an integer ≥ 0).
 * @param tab marked-terminal's `tab` option: the indentation of a list, in spaces.
 */
export function renumberList(out: string, start: number, tab: number): string {
  const item = new RegExp(`^ {${tab}}(\\d+)\\. `);
  let next = start;
  let extra = '';
  return out
    .split('\n')
    .map((line) => {
      const m = item.exec(line);
      if (m) {
        const was = m[1]!;
        const now = String(next++);
        extra = ' '.repeat(Math.max(0, now.length - was.length));
        return `${' '.repeat(tab)}${now}. ${line.slice(m[0].length)}`;
      }
      return extra && line.startsWith(' '.repeat(tab + 1)) ? extra + line : line;
    })
    .join('\n');
}

/**
 * Wraps marked-terminal's `list` renderer so an ordered list starts at its own first number.
 * @param list marked-terminal's renderer function for `list` tokens.
 * @param tab marked-terminal's `tab` option, in spaces.
 */
export function listFromStart<T>(
  list: (this: T, token: { ordered: boolean; start: number | '' }) => string,
  tab: number,
): (this: T, token: { ordered: boolean; start: number | '' }) => string {
  return function (this: T, token) {
    const out = list.call(this, token);
    return token.ordered ? renumberList(out, typeof token.start === 'number' ? token.start : 1, tab) : out;
  };
}
