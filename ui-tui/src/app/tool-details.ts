/**
 * Ctrl+O: show or hide tool output. Finished items are printed once through `<Static>`, so a
 * tool line already on screen cannot grow in place: the toggle clears the screen and the
 * scrollback (as a width change does, see resize-redraw.ts) and hands out a new key for the
 * transcript, which prints the window of items again with the output under each tool line (or
 * without it). A hint says what changed, for a few seconds.
 */
import { useStdout } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';
import { CLEAR_SCREEN } from './resize-redraw.js';

/** What the App needs to show tool details. */
export interface ToolDetails {
  /** Tool output is shown under tool lines. */
  shown: boolean;
  /** Changes at every toggle: part of the transcript's key (printed again). */
  key: number;
  /** The line saying what the last toggle did; null once it has been shown long enough. */
  hint: string | null;
  /** Shows or hides tool output. */
  toggle(): void;
}

/** The hint after a toggle. */
export function toolDetailsHint(shown: boolean): string {
  return shown
    ? 'Tool output shown under each tool call (Ctrl+O hides it).'
    : 'Tool output hidden (Ctrl+O shows it).';
}

/** Ctrl+O's state; `hintMs` is how long the hint stays. */
export function useToolDetails(hintMs = 4_000): ToolDetails {
  const { stdout } = useStdout();
  const [shown, setShown] = useState(false);
  const shownNow = useRef(false); // a second Ctrl+O can come before the re-render
  const [key, setKey] = useState(0);
  const [hint, setHint] = useState<string | null>(null);
  useEffect(() => {
    if (hint === null) return;
    const t = setTimeout(() => setHint(null), hintMs);
    return () => clearTimeout(t);
  }, [hint, key, hintMs]);
  const toggle = useCallback(() => {
    // straight to the terminal (as resize-redraw.ts): Ink's next render draws the live part anew
    stdout.write(CLEAR_SCREEN);
    const next = !shownNow.current;
    shownNow.current = next;
    setShown(next);
    setHint(toolDetailsHint(next));
    setKey((k) => k + 1);
  }, [stdout]);
  return { shown, key, hint, toggle };
}
