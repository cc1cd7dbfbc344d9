/**
 * A unified diff in a card (a file edit waiting for approval, `approvals.edits: ask`): coloured
 * lines (additions green, deletions red, hunk headers cyan), each cut to the width, at most
 * `maxLines` of them with a "+N more lines" note. The text is the daemon's (capped there too).
 */
import { Box, Text } from 'ink';
import { colorDiff } from '../markdown/diff.js';
import { cleanText, truncate } from './format.js';
import { theme } from './theme.js';

/** Diff lines a card shows by default. */
export const DIFF_CARD_LINES = 24;

/** Props of `DiffView`. */
export interface DiffViewProps {
  diff: string;
  width: number;
  maxLines?: number;
}

/** The diff, capped (see the file comment). */
export function DiffView({ diff, width, maxLines = DIFF_CARD_LINES }: DiffViewProps): React.JSX.Element {
  const lines = cleanText(diff).replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, maxLines).map((l) => colorDiff(truncate(l, Math.max(10, width))));
  const more = lines.length - shown.length;
  return (
    <Box flexDirection="column">
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate">
          {l}
        </Text>
      ))}
      {more > 0 ? <Text color={theme.muted}>+{more} more lines</Text> : null}
    </Box>
  );
}
