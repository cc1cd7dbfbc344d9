/**
 * A clean redraw when the terminal width changes. The terminal re-wraps what Ink drew at the old
 * width, so Ink's own resize handling (erase the old frame's line count, draw again with the
 * tree not yet re-rendered at the new width) can leave pieces of the old frame behind: a composer
 * border cut in two, half a status line. On a width change this erases the screen and the
 * scrollback and hands out a new key for the transcript: the next render, at the new width,
 * prints the window of items again through `<Static>` and the live part below them.
 */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** Erase the screen and the scrollback, cursor to the top left (Ink's `clearTerminal`). */
export const CLEAR_SCREEN = '\u001b[2J\u001b[3J\u001b[H';

/**
 * Clears the terminal when its width changes and returns a key that changes with it: give it to
 * the transcript so its items are printed again.
 */
export function useResizeRedraw(): number {
  const { stdout } = useStdout();
  const [key, setKey] = useState(0);
  useEffect(() => {
    let cols = stdout.columns;
    const onResize = (): void => {
      if (stdout.columns === cols) return; // a height change re-wraps nothing
      cols = stdout.columns;
      // Straight to the terminal, not through Ink's `write` (that would draw the stale frame
      // again); Ink's next render erases "its" lines from the top-left corner, then draws anew.
      stdout.write(CLEAR_SCREEN);
      setKey((k) => k + 1);
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return key;
}
