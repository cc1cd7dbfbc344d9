/**
 * Chips of `@` references: in the composer (what the message will attach, sizes from completion
 * answers) and under a user message in the transcript (what was attached, from the message's
 * attached block).
 */
import { chipLabel, type AttachmentChip } from '@hermes/core/constants';
import type { PromptAttachment } from '@hermes/core/protocol';
import { Box, Text } from 'ink';
import { theme } from './theme.js';

/** The chip of a reference about to be sent (size when a completion answer told it). */
export function pendingChip(
  a: PromptAttachment,
  sizeOf: (path: string) => number | undefined,
): AttachmentChip {
  switch (a.kind) {
    case 'file': {
      const bytes = sizeOf(a.path);
      return { kind: 'file', ref: a.path, ...(bytes !== undefined ? { bytes } : {}) };
    }
    case 'folder':
      return { kind: 'folder', ref: a.path };
    case 'url':
      return { kind: 'url', ref: a.url };
    default:
      return { kind: a.kind, ref: a.kind };
  }
}

/** Props of `ReferenceChips`. */
export interface ReferenceChipsProps {
  chips: AttachmentChip[];
}

/** One line of chips (wrapping), muted; nothing without chips. */
export function ReferenceChips({ chips }: ReferenceChipsProps): React.JSX.Element | null {
  if (chips.length === 0) return null;
  return (
    <Box flexWrap="wrap" columnGap={2} paddingX={1}>
      {chips.map((c, i) => (
        <Text key={`${c.kind}:${c.ref}:${i}`} color={c.warning ? theme.warn : theme.muted}>
          {chipLabel(c)}
        </Text>
      ))}
    </Box>
  );
}
