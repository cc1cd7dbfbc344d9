/**
 * The finished part of the conversation, printed once through Ink's `<Static>`: it scrolls into
 * the terminal's scrollback, so tmux copy-mode and terminal search keep working, and only the live
 * part below is redrawn.
 *
 * The store keeps a bounded window of items, each with an ordinal `n` that only grows. `<Static>`
 * prints `items.slice(printedCount)` and remembers `items.length`; it is given a view whose
 * length is the ordinal printing may reach and whose slice(k) is the window's items with
 * `k <= n < length`, so newly appended items print exactly once even after old ones left the
 * window.
 *
 * Printing is paced, which bounds the memory of one frame (Ink lays out and draws a frame's static
 * items all at once, cell by cell): at most `batch` items per commit, the next batch in the commit
 * after (a `/history` page of 500 messages, a reprint of the window after a resize). An assistant
 * reply is markdown: it waits until the markdown libraries are loaded (they load on first need,
 * not at start-up), and everything after it waits with it, so the order stays. What waits is not
 * missing from the screen meanwhile: `HeldItems` shows it in the live part, as plain text, until
 * the commit that prints it (the app passes both the same `markdownReady`).
 */
import { Box, Static } from 'ink';
import { useEffect, useMemo, useRef, useState } from 'react';
import { isMarkdownReady, loadMarkdown } from '../markdown/render.js';
import type { TranscriptItem } from '../state/types.js';
import { ClippedTail } from './BoundedColumn.js';
import { MessageView } from './MessageView.js';

/** Most items printed in one commit. */
export const PRINT_BATCH = 40;

/** Whether markdown can be rendered yet, and how to get it loaded. */
export interface MarkdownLoader {
  isReady(): boolean;
  /** Loads the libraries; resolves (or rejects: text is then shown as is) when done. */
  load(): Promise<unknown>;
}

const markdownModule: MarkdownLoader = { isReady: isMarkdownReady, load: loadMarkdown };

/** Props of `Transcript`. */
export interface TranscriptProps {
  /** The window of finished items, oldest first. */
  items: TranscriptItem[];
  /** Ordinal of the next item (one past the newest). */
  nextN: number;
  width: number;
  /** Show tool details for items printed from now on. */
  toolDetails?: boolean;
  /** Most items printed per commit (default `PRINT_BATCH`). */
  batch?: number;
  /** The markdown libraries (default: markdown/render.ts). */
  markdown?: MarkdownLoader;
  /**
   * Whether markdown is loaded, when the caller keeps that state (to show what waits for it with
   * `HeldItems` in the same commits); then `onMarkdownReady` is called once it is.
   */
  markdownReady?: boolean;
  onMarkdownReady?: () => void;
}

/**
 * An array-like view of the window for `<Static>` (see the file comment): `length` is `limit`
 * (default `nextN`), `slice(k)` the items with `k <= n < limit`.
 */
export function staticView(items: TranscriptItem[], nextN: number, limit = nextN): TranscriptItem[] {
  const view = {
    length: limit,
    slice: (start = 0) => items.filter((i) => i.n >= start && i.n < limit),
  };
  return view as unknown as TranscriptItem[];
}

/**
 * The ordinal printing may reach in this commit: past what earlier commits allowed (`from`) by at
 * most `batch` items, and not past an assistant reply while markdown is not loaded.
 */
export function printLimit(
  items: TranscriptItem[],
  nextN: number,
  from: number,
  batch: number,
  markdownReady: boolean,
): number {
  let limit = Math.min(nextN, from + Math.max(1, batch));
  if (!markdownReady) {
    const reply = items.find((i) => i.n >= from && i.n < limit && i.kind === 'assistant');
    if (reply) limit = reply.n;
  }
  return limit;
}

/** The printed transcript. */
export function Transcript({
  items,
  nextN,
  width,
  toolDetails = false,
  batch = PRINT_BATCH,
  markdown = markdownModule,
  markdownReady: readyProp,
  onMarkdownReady,
}: TranscriptProps): React.JSX.Element {
  // where printing stands: a remount (resize, details toggle) prints the window again from its start.
  // A ref, not state: moving it needs no render of its own (one more frame for every item printed
  // while a reply streams); only a batch left waiting asks for the next commit.
  const from = useRef<number | null>(null);
  from.current ??= items[0]?.n ?? nextN;
  const [, nextBatch] = useState(0);
  const [ownReady, setMarkdownReady] = useState(() => markdown.isReady());
  const markdownReady = readyProp ?? ownReady;
  const limit = printLimit(items, nextN, from.current, batch, markdownReady);
  const view = useMemo(() => staticView(items, nextN, limit), [items, nextN, limit]);
  const blockedOnMarkdown = !markdownReady && items.find((i) => i.n === limit)?.kind === 'assistant';
  useEffect(() => {
    if (from.current !== null && limit > from.current) {
      from.current = limit;
      if (limit < nextN && !blockedOnMarkdown) nextBatch((k) => k + 1); // the next batch, next commit
    }
  }, [limit, nextN, blockedOnMarkdown]);
  useEffect(() => {
    if (!blockedOnMarkdown) return;
    let live = true;
    const done = (): void => {
      if (!live) return;
      setMarkdownReady(true);
      onMarkdownReady?.();
    };
    markdown.load().then(done, done);
    return () => {
      live = false;
    };
  }, [blockedOnMarkdown, markdown, onMarkdownReady]);
  return (
    <Static items={view}>
      {(item) => (
        <Box key={item.n} width={width}>
          <MessageView item={item} width={width} toolDetails={toolDetails} />
        </Box>
      )}
    </Static>
  );
}

/** Most items `HeldItems` draws (the newest; the live part shows its bottom rows anyway). */
export const HELD_SHOWN = 20;

/**
 * The items that wait for markdown to print (see the file comment): while it is not loaded, the
 * first assistant reply of the window (none was printed yet: printing stops before one) and all
 * after it; else none.
 */
export function heldItems(items: TranscriptItem[], markdownReady: boolean): TranscriptItem[] {
  if (markdownReady) return [];
  const at = items.findIndex((i) => i.kind === 'assistant');
  return at < 0 ? [] : items.slice(Math.max(at, items.length - HELD_SHOWN));
}

/** Props of `HeldItems`. */
export interface HeldItemsProps {
  /** From `heldItems`. */
  items: TranscriptItem[];
  width: number;
  toolDetails?: boolean;
}

/** What waits for markdown to print, drawn in the live part as plain text (its newest rows kept). */
export function HeldItems({ items, width, toolDetails = false }: HeldItemsProps): React.JSX.Element | null {
  if (!items.length) return null;
  return (
    <ClippedTail>
      {items.map((item) => (
        <Box key={item.n} width={width}>
          <MessageView item={item} width={width} toolDetails={toolDetails} />
        </Box>
      ))}
    </ClippedTail>
  );
}
