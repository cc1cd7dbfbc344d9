/**
 * The live part of a reply while it streams: markdown rendered, redrawn at most ~30 times a
 * second, and only its last screenful (the whole reply is printed once, in the transcript, when it
 * completes).
 */
import { Box, Text } from 'ink';
import { useEffect, useMemo } from 'react';
import { isMarkdownReady, loadMarkdown, renderMarkdown } from '../markdown/render.js';
import { StreamingRenderer } from '../markdown/streaming.js';
import { useThrottled } from './hooks.js';
import { theme } from './theme.js';

/** Props of `StreamingMessage`. */
export interface StreamingMessageProps {
  /** Assistant text so far. */
  text: string;
  /** Reasoning text so far (its last line is shown dimmed while no text came yet). */
  reasoning?: string;
  width: number;
  /** Most lines shown. */
  maxLines: number;
  /** Minimum ms between redraws (default 33: ≤ ~30 redraws a second; 0: every change, paced by the caller). */
  throttleMs?: number;
  /** Markdown renderer (tests). */
  render?: (md: string, width: number) => string;
}

/** The streaming reply. */
export function StreamingMessage({
  text,
  reasoning = '',
  width,
  maxLines,
  throttleMs = 33,
  render = renderMarkdown,
}: StreamingMessageProps): React.JSX.Element | null {
  // the markdown libraries load on first need: a reply streaming in is one (until they are
  // loaded, its text shows as is)
  useEffect(() => {
    if (!isMarkdownReady()) void loadMarkdown().catch(() => {});
  }, []);
  const throttled = useThrottled(text, throttleMs);
  // A new reply (the next turn starts in the same render as the last one ends) shows at once: the
  // throttled value would still be the old reply, a screenful printed a second time.
  const shown = throttleMs <= 0 || !text.startsWith(throttled) ? text : throttled;
  const renderer = useMemo(() => new StreamingRenderer(render), [render]);
  const tail = useMemo(
    () => (shown ? renderer.tail(shown, width - 2, Math.max(1, maxLines)) : null),
    [renderer, shown, width, maxLines],
  );
  if (!tail) {
    const last = reasoning.trimEnd().split('\n').at(-1) ?? '';
    return (
      <Box marginTop={1}>
        <Text color={theme.muted} wrap="truncate-end">
          {last ? `∴ ${last}` : '…'}
        </Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" marginTop={1}>
      {tail.clipped ? <Text color={theme.muted}>⋮</Text> : null}
      <Text>{tail.text}</Text>
    </Box>
  );
}
