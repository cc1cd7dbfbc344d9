/**
 * Keeping the head and the tail of a long text (tool results are capped in size).
 *
 * Caps what the model reads of tool output: the registry caps every result with `capHeadTail`,
 * and the `terminal` tool streams its child's output through a `HeadTailBuffer` so a command that
 * prints gigabytes never holds more than the cap in memory. Both mark the cut with
 * `[... N chars omitted ...]` so the model knows text is missing and how much. What clients show
 * of a result (`tool.complete`'s `detail`) is cut separately, by `capDetail` (protocol/limits.ts,
 * zod-free for `hermes chat` start-up), with the marker the protocol documents.
 */

/** Options for `capHeadTail` and `HeadTailBuffer`. */
export interface HeadTailOptions {
  /**
   * Share of the kept characters taken from the head, 0..1 (default 0.5). The `terminal` tool
   * uses 0.4: the end of a command's output (errors, summaries) matters more than its start.
   */
  headRatio?: number;
}

/** The result of capping: the text to use and how many characters were left out. */
export interface CappedText {
  text: string;
  /** True when something was cut. */
  truncated: boolean;
  /** Characters (UTF-16 code units) left out; 0 when nothing was cut. */
  omitted: number;
}

/** The marker put where text was cut. `omitted` is a count of characters. */
export function omissionMarker(omitted: number): string {
  return `\n\n[... ${omitted.toLocaleString('en-US')} chars omitted ...]\n\n`;
}

function split(maxChars: number, omittedEstimate: number, headRatio: number): [number, number] {
  const room = Math.max(0, maxChars - omissionMarker(omittedEstimate).length);
  const ratio = Math.min(1, Math.max(0, headRatio));
  const head = Math.floor(room * ratio);
  return [head, room - head];
}

/**
 * Caps `text` to at most `maxChars` characters (UTF-16 code units), marker included, by keeping
 * its head and tail around an omission marker.
 * @param maxChars the cap; a value below the marker's own length keeps only a plain head slice.
 * @returns the text unchanged when it already fits.
 */
export function capHeadTail(text: string, maxChars: number, opts: HeadTailOptions = {}): CappedText {
  if (text.length <= maxChars) return { text, truncated: false, omitted: 0 };
  const [head, tail] = split(maxChars, text.length, opts.headRatio ?? 0.5);
  if (head + tail === 0) {
    const kept = text.slice(0, Math.max(0, maxChars));
    return { text: kept, truncated: true, omitted: text.length - kept.length };
  }
  const omitted = text.length - head - tail;
  const body =
    text.slice(0, head) + omissionMarker(omitted) + (tail > 0 ? text.slice(text.length - tail) : '');
  return { text: body, truncated: true, omitted };
}

/**
 * A streaming collector that keeps at most about `maxChars` characters: the first part in full
 * and a rolling window of the last part. Memory stays bounded however much is pushed.
 */
export class HeadTailBuffer {
  private head = '';
  private tailChunks: string[] = [];
  private tailLength = 0;
  private total = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;
  /** Tail kept while collecting: enough to return everything when the total still fits. */
  private readonly tailKeep: number;

  /** @param maxChars the cap of `toString()`'s result, marker included. */
  constructor(
    private readonly maxChars: number,
    opts: HeadTailOptions = {},
  ) {
    // Reserve room for a marker with a generously large number in it.
    [this.headLimit, this.tailLimit] = split(maxChars, Number.MAX_SAFE_INTEGER, opts.headRatio ?? 0.5);
    this.tailKeep = Math.max(this.tailLimit, maxChars - this.headLimit);
  }

  /** Characters pushed so far (kept or not). */
  get totalChars(): number {
    return this.total;
  }

  /** Appends text. */
  push(chunk: string): void {
    if (chunk.length === 0) return;
    this.total += chunk.length;
    if (this.head.length < this.headLimit) {
      const take = this.headLimit - this.head.length;
      this.head += chunk.slice(0, take);
      chunk = chunk.slice(take);
      if (chunk.length === 0) return;
    }
    this.tailChunks.push(chunk);
    this.tailLength += chunk.length;
    // Drop whole chunks from the front while the rest still fills the tail window.
    while (this.tailChunks.length > 1 && this.tailLength - this.tailChunks[0]!.length >= this.tailKeep) {
      this.tailLength -= this.tailChunks.shift()!.length;
    }
    if (this.tailChunks.length > 64) this.compact();
  }

  private compact(): void {
    const joined = this.tailChunks.join('');
    const kept = joined.slice(Math.max(0, joined.length - this.tailKeep));
    this.tailChunks = [kept];
    this.tailLength = kept.length;
  }

  /** The collected text: everything when it fits in `maxChars`, else head + marker + tail. */
  toString(): string {
    const tail = this.tailChunks.join('');
    if (this.total <= this.maxChars) return this.head + tail;
    if (this.headLimit + this.tailLimit === 0) return tail.slice(Math.max(0, tail.length - this.maxChars));
    const tailKept = tail.slice(Math.max(0, tail.length - this.tailLimit));
    const omitted = this.total - this.head.length - tailKept.length;
    return this.head + omissionMarker(omitted) + tailKept;
  }
}
