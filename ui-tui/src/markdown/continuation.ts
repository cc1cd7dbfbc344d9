/**
 * What one printed block of a streaming reply carries into the next (the reply is printed block by
 * block while it streams, each block rendered on its own):
 *
 * - Ordered-list numbering. A loose list's items are blocks of their own; rendered alone, an item
 *   typed `1.` (models often number every item so) showed `1.`. Markdown numbers a list from its
 *   first item's number, then +1 for each item: an item that goes on with the list the block before
 *   ended with gets its number from there.
 * - Reference links. `[text][ref]` and `[text]` resolve through a definition `[ref]: url` anywhere
 *   in the reply, often at its end. A block that may use one (`hasReferenceCandidate`) is held back
 *   with everything after it until the reply ends (it stays on screen, in the live part), and
 *   definitions printed earlier go with the text printed at the end (`referenceDefinitions`).
 */
import { fenceAfter, splitBlocks } from './streaming.js';

/** Where a top-level ordered list ends: the number its next item would get and its delimiter. */
export interface OrderedEnd {
  next: number;
  delim: '.' | ')';
}

/** A top-level ordered item (`1.`, `2)`), at most one space in (a line the reply's cut rule sees as a new block). */
const ORDERED = /^( ?)(\d{1,9})([.)])(?=[ \t]|$)/;
/** A top-level bullet item. */
const BULLET = /^ ?[-*+](?=[ \t]|$)/;
/** A line that ends a list without a blank line before it: heading, fence, quote, table row. */
const BREAKER = /^ ?(#|```|~~~|>|\|)/;

/**
 * One block (its markdown) numbered on from `prev`: when its first line is an ordered item of the
 * same delimiter as the list the previous block ended with, it takes that list's next number.
 * @returns the block (renumbered or as it was) and where its last top-level ordered list ends
 *   (null when the block does not end in one).
 */
export function continueBlock(
  block: string,
  prev: OrderedEnd | null,
): { text: string; end: OrderedEnd | null } {
  let text = block;
  let cur: OrderedEnd | null = null;
  let fence: string | null = null;
  let blank = false;
  let first = true;
  for (const line of block.split('\n')) {
    const inFence = fence !== null;
    fence = fenceAfter(line, fence);
    if (inFence) continue;
    if (line.trim() === '') {
      blank = true;
      continue;
    }
    const m = ORDERED.exec(line);
    if (m) {
      const delim = m[3] as '.' | ')';
      if (first && prev && prev.delim === delim) {
        text = line.replace(ORDERED, `$1${prev.next}$3`) + block.slice(line.length);
        cur = { next: prev.next + 1, delim };
      } else if (cur && cur.delim === delim) cur = { next: cur.next + 1, delim };
      else cur = { next: Number(m[2]) + 1, delim };
    } else if (BULLET.test(line) || (/^ ?\S/.test(line) && (blank || BREAKER.test(line)))) {
      cur = null;
    }
    blank = false;
    first = false;
  }
  return { text, end: cur };
}

/** Whether `text` starts with a top-level ordered list item (one `continueFirstLine` would renumber). */
export function startsOrderedItem(text: string): boolean {
  return ORDERED.test(text);
}

/**
 * `text` with its first line numbered on from `prev` (as `continueBlock` does, reading only that
 * line: cheap enough for every frame of a live reply).
 */
export function continueFirstLine(text: string, prev: OrderedEnd | null): string {
  if (!prev) return text;
  const m = ORDERED.exec(text);
  return m && m[3] === prev.delim ? text.replace(ORDERED, `$1${prev.next}$3`) : text;
}

/**
 * Text of one or more blocks numbered on from `prev` block by block (see `continueBlock`); the
 * blocks are joined by one blank line.
 */
export function continueBlocks(
  text: string,
  prev: OrderedEnd | null,
): { text: string; end: OrderedEnd | null } {
  let end = prev;
  const out = splitBlocks(text).map((b) => {
    const r = continueBlock(b, end);
    end = r.end;
    return r.text;
  });
  return { text: out.join('\n\n'), end };
}

/** A reference definition line: `[label]: destination`. */
const DEFINITION = /^ {0,3}\[([^\]\n]+)\]:[ \t]*\S/;
/** Code spans on a line (their brackets are code, not links). */
const CODE_SPAN = /(`+)[^`]*?\1/g;
/**
 * A bracketed text that may be a reference link (`[text][ref]`, `[text][]`, `[text]`): not
 * escaped, not an inline link `[text](url)`, not a definition `[ref]:`, not a task box (`[ ]`,
 * `[x]`), not a footnote mark (`[^1]`).
 */
const CANDIDATE = /(?<!\\)\[(?![ xX]\]|\^)(?:[^\]\\\n]|\\.)+\](?![(:])/;

/**
 * Whether a line of a reply (outside fenced code) has a bracketed text that would be a link if
 * the reply defined it.
 */
export function hasReferenceCandidate(line: string): boolean {
  if (!line.includes('[') || DEFINITION.test(line)) return false;
  return CANDIDATE.test(line.replace(CODE_SPAN, ''));
}

/** The reference definition lines of `text` (outside fenced code), in order. */
export function referenceDefinitions(text: string): string[] {
  if (!text.includes(']:')) return [];
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const inFence = fence !== null;
    fence = fenceAfter(line, fence);
    if (!inFence && DEFINITION.test(line)) out.push(line.trim());
  }
  return out;
}
