/**
 * Rendering a reply while it streams: only its tail is live on screen (the whole reply is printed
 * once when it completes), and the tail is rendered block by block with a cache, so each frame
 * costs the size of the last block rather than of the whole reply.
 */

/**
 * Splits markdown into blocks at blank lines outside fenced code, by the rule that ends a part of
 * a reply printed while it streams (state/reply-parts.ts): a line indented by two or more after a
 * blank line still belongs to the block before it (a list item's next paragraph or its code), so
 * the live tail draws it as the printed part will. The last block is the one still growing.
 * Joining the blocks with a blank line gives back the text (up to blank-line runs).
 */
export function splitBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  /** Blank lines read after `current`, not yet known to be inside it or between two blocks. */
  let blanks: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const inFence = fence !== null;
    fence = fenceAfter(line, fence);
    if (!inFence && line.trim() === '') {
      if (current.length) blanks.push(line);
      continue;
    }
    if (blanks.length && /^ ?\S/.test(line)) {
      blocks.push(current.join('\n'));
      current = [];
    } else current.push(...blanks);
    blanks = [];
    current.push(line);
  }
  if (current.length) blocks.push(current.join('\n'));
  return blocks;
}

/** The visible tail of a streaming reply. */
export interface StreamTail {
  /** Rendered lines to show. */
  text: string;
  /** True when earlier lines are not shown. */
  clipped: boolean;
}

/** Renders streaming tails with a cache of finished blocks. */
export class StreamingRenderer {
  private cache = new Map<string, string>();

  /** @param render markdown → ANSI text for a width. */
  constructor(
    private readonly render: (md: string, width: number) => string,
    private readonly maxCache = 256,
  ) {}

  /** The last `maxLines` rendered lines of `text`. */
  tail(text: string, width: number, maxLines: number): StreamTail {
    const blocks = splitBlocks(text);
    const lines: string[] = [];
    let i = blocks.length - 1;
    for (; i >= 0 && lines.length < maxLines; i--) {
      const rendered = this.renderBlock(blocks[i]!, width, i === blocks.length - 1, maxLines);
      const blockLines = rendered.split('\n');
      if (lines.length) blockLines.push('');
      lines.unshift(...blockLines);
    }
    const clipped = i >= 0 || lines.length > maxLines;
    return { text: lines.slice(-maxLines).join('\n'), clipped };
  }

  private renderBlock(block: string, width: number, growing: boolean, maxLines = Infinity): string {
    if (growing) return this.render(liveTail(block, maxLines), width);
    const key = `${width}\u0000${block}`;
    let out = this.cache.get(key);
    if (out === undefined) {
      out = this.render(block, width);
      if (this.cache.size >= this.maxCache) this.cache.clear();
      this.cache.set(key, out);
    }
    return out;
  }
}

/**
 * The part of a growing block worth rendering for a live tail of `maxLines` lines: all of it while
 * it is short; else its last `2 × maxLines` source lines (a line wraps to one screen line or more,
 * so these fill the tail), after the lines that make the block what it is: the opening fence line
 * of fenced code (still drawn as code), the header and delimiter rows of a table (still drawn as a
 * table); else from its first line indented by three spaces or fewer (one deep in a nested list
 * would be drawn as indented code). A frame then costs the tail's size, not the block's (a 2,000-line code block streaming
 * in). Highlighting that depends on earlier lines may differ in the live tail; the block is
 * printed whole, from all of its text, once it is finished.
 */
export function liveTail(block: string, maxLines: number): string {
  const keep = Math.max(1, maxLines) * 2;
  let at = block.length;
  for (let n = 0; n < keep && at > 0; n++) at = block.lastIndexOf('\n', at - 1);
  if (at <= 0) return block;
  const tail = block.slice(at + 1);
  const firstEnd = block.indexOf('\n');
  const first = block.slice(0, firstEnd);
  if (FENCE_OPEN.test(first) && firstEnd < at) return `${first}\n${tail}`;
  const secondEnd = block.indexOf('\n', firstEnd + 1);
  if (first.includes('|') && secondEnd > 0 && secondEnd < at) {
    const second = block.slice(firstEnd + 1, secondEnd);
    if (TABLE_DELIMITER.test(second)) return `${block.slice(0, secondEnd)}\n${tail}`;
  }
  // a tail that starts inside a nested list would be drawn as indented code: it starts at its
  // first line indented by three or fewer (all of it, when every line is indented: code)
  const shallow = tail.search(/^ {0,3}\S/m);
  return shallow > 0 ? tail.slice(shallow) : tail;
}

const FENCE_OPEN = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * The fenced code a line leaves the text in: `fence` is the opening run (``` or ~~~, its length)
 * of the code before the line, null outside code. A fence line opens code; inside, only a line of
 * the same character, at least as long and nothing else, closes it.
 */
export function fenceAfter(line: string, fence: string | null): string | null {
  const m = FENCE_OPEN.exec(line);
  if (!m) return fence;
  const mark = m[1]!;
  if (fence === null) return mark;
  return mark[0] === fence[0] && mark.length >= fence.length && line.trim() === mark ? null : fence;
}
/** A table's delimiter row: cells of dashes with optional alignment colons, between pipes. */
const TABLE_DELIMITER = /^\s{0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
