/**
 * The finished part of the conversation, printed once through Ink's `<Static>`: it scrolls into
 * the terminal's scrollback, so tmux copy-mode and terminal search keep working, and only the live
 * part below is redrawn.
 *
 * The store keeps a bounded window of items, each with an ordinal `n` that only grows. `<Static>`
 * prints `items.slice(printedCount)` and remembers `items.length`; it is given a view whose
 * length is the next ordinal and whose slice(k) is the window's items with `n >= k`, so newly
 * appended items print exactly once even after old ones left the window.
 */
import { Box, Static } from 'ink';
import { useMemo } from 'react';
import type { TranscriptItem } from '../state/types.js';
import { MessageView } from './MessageView.js';

/** Props of `Transcript`. */
export interface TranscriptProps {
  /** The window of finished items, oldest first. */
  items: TranscriptItem[];
  /** Ordinal of the next item (one past the newest). */
  nextN: number;
  width: number;
  /** Show tool details for items printed from now on. */
  toolDetails?: boolean;
}

/** An array-like view of the window for `<Static>` (see the file comment). */
export function staticView(items: TranscriptItem[], nextN: number): TranscriptItem[] {
  const view = {
    length: nextN,
    slice: (start = 0) => items.filter((i) => i.n >= start),
  };
  return view as unknown as TranscriptItem[];
}

/** The printed transcript. */
export function Transcript({ items, nextN, width, toolDetails = false }: TranscriptProps): React.JSX.Element {
  const view = useMemo(() => staticView(items, nextN), [items, nextN]);
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
