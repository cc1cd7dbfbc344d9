/**
 * Lists for the terminal, in place of marked-terminal's (which wrapped item text at the full width,
 * so a long item's wrapped lines started in column 0, counted nested items into the outer
 * numbering, and drew a task's box a second time after marked's own checkbox token).
 *
 * A list is indented by `tab` spaces; an item is its marker (`*`, or its number: the list's start,
 * then +1 for each item), for a task its box (`[ ]`, `[x]`), then its text wrapped to the width
 * left, every further line under the text's first column. A list nested in an item starts `tab`
 * spaces in from the item's marker, as in the markdown itself.
 */
import type { Token, Tokens } from 'marked';
import { hang } from './wrap.js';

/** Renders block tokens to text at most `width` columns wide (no trailing newline needed). */
export type BlockRender = (tokens: Token[], width: number) => string;

/** The least width item text is wrapped to, in columns. */
const MIN_TEXT = 10;

/**
 * One list (`token`) as lines `width` columns wide at most (while the width allows `MIN_TEXT`
 * columns of item text), without a trailing newline.
 * @param render renders an item's tokens (and a nested list, through this function again).
 * @param tab the indentation of a list, in spaces.
 */
export function formatList(token: Tokens.List, width: number, render: BlockRender, tab: number): string {
  const start = typeof token.start === 'number' ? token.start : 1;
  const indent = ' '.repeat(tab);
  const out: string[] = [];
  token.items.forEach((item, i) => {
    const { box, tokens } = taskParts(item);
    const marker = `${token.ordered ? `${start + i}.` : '*'} ${box}`;
    const textWidth = Math.max(MIN_TEXT, width - tab - marker.length);
    const pad = ' '.repeat(marker.length);
    let first = true;
    let group: Token[] = [];
    const flush = (): void => {
      const text = group.length ? trimBlank(render(group, textWidth)) : '';
      group = [];
      if (!text) return;
      if (item.loose && !first) out.push('');
      out.push(hang(text.split('\n'), first ? indent + marker : indent + pad, indent + pad));
      first = false;
    };
    for (const t of tokens) {
      if (t.type !== 'list') {
        group.push(t);
        continue;
      }
      flush();
      if (first) out.push(indent + marker.trimEnd()); // an item that starts with a list
      first = false;
      const nested = trimBlank(render([t], Math.max(MIN_TEXT + tab, width - tab)));
      out.push(hang(nested.split('\n'), indent, indent));
    }
    flush();
    if (first) out.push(indent + marker.trimEnd()); // an empty item
  });
  return out.join('\n');
}

/**
 * A task item's box and its tokens without marked's checkbox token (tight items have it first
 * among their tokens, loose ones first in their first paragraph); not a task: no box.
 */
function taskParts(item: Tokens.ListItem): { box: string; tokens: Token[] } {
  if (!item.task) return { box: '', tokens: item.tokens };
  const box = item.checked ? '[x] ' : '[ ] ';
  const [head, ...rest] = item.tokens;
  if (head?.type === 'checkbox') return { box, tokens: rest };
  if (
    (head?.type === 'paragraph' || head?.type === 'text') &&
    'tokens' in head &&
    head.tokens?.[0]?.type === 'checkbox'
  ) {
    return { box, tokens: [{ ...head, tokens: head.tokens.slice(1) } as Token, ...rest] };
  }
  return { box, tokens: item.tokens };
}

/** `text` without blank lines at its ends and with runs of blank lines made one. */
function trimBlank(text: string): string {
  return text
    .replace(/^(?:[ \t]*\n)+/, '')
    .replace(/\s+$/, '')
    .replace(/\n(?:[ \t]*\n)+/g, '\n\n');
}
