/**
 * A column that never grows taller than `maxHeight` rows: the live part of the screen.
 *
 * Ink's own drawing breaks down once the live part is as tall as the terminal: it then clears the
 * whole screen and scrollback on every frame and writes everything it ever printed again, and its
 * line count is off by one afterwards, so the next erase eats the last line printed above the
 * live part (a queued prompt) and the screen is left mostly blank. Keeping the live part below
 * the terminal's height avoids that path altogether.
 *
 * Ink's `Box` has no `maxHeight`, Yoga (its layout engine) does; it is set on the box's layout
 * node. When the content is taller, the children that may shrink give up rows: give the one to
 * cut `flexShrink={1}` and `overflow="hidden"` (see `ClippedTail`), every other child
 * `flexShrink={0}`.
 */
import { Box, type DOMElement } from 'ink';
import { useCallback, useRef, type ReactNode } from 'react';

/** Props of `BoundedColumn`. */
export interface BoundedColumnProps {
  /** Most rows the column takes. */
  maxHeight: number;
  width: number;
  children?: ReactNode;
}

/** A column box capped at `maxHeight` rows. */
export function BoundedColumn({ maxHeight, width, children }: BoundedColumnProps): React.JSX.Element {
  const node = useRef<DOMElement | null>(null);
  const cap = Math.max(1, Math.floor(maxHeight));
  // Set during render as well as on mount: the frame drawn by this very commit uses the new cap
  // (Ink lays out and draws when React commits, before effects run). Idempotent.
  node.current?.yogaNode?.setMaxHeight(cap);
  const attach = useCallback(
    (el: DOMElement | null) => {
      node.current = el;
      el?.yogaNode?.setMaxHeight(cap);
    },
    [cap],
  );
  return (
    <Box ref={attach} flexDirection="column" width={width}>
      {children}
    </Box>
  );
}

/** Props of `ClippedTail`. */
export interface ClippedTailProps {
  children?: ReactNode;
}

/**
 * A child of `BoundedColumn` that gives up rows when the column is full: its top is cut, its
 * bottom (the newest text of a streaming reply) stays in view.
 */
export function ClippedTail({ children }: ClippedTailProps): React.JSX.Element {
  return (
    <Box flexDirection="column" flexShrink={1} overflow="hidden" justifyContent="flex-end">
      <Box flexDirection="column" flexShrink={0}>
        {children}
      </Box>
    </Box>
  );
}
