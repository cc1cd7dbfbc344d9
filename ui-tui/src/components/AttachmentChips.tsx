/** Attachment chips: `[image shot.png · 12.3 KB]`, under a stored prompt or above the composer. */
import { Box, Text } from 'ink';
import { useSyncExternalStore } from 'react';
import { attachmentLabel } from '@hermes/core/constants';
import type { PendingAttachments } from '../app/pending-attachments.js';
import { truncate } from './format.js';
import { theme } from './theme.js';

/** Props of `AttachmentChips`. */
export interface AttachmentChipsProps {
  items: ReadonlyArray<{ kind: string; name: string; bytes?: number }>;
  width: number;
  /** Columns left empty before the chips. */
  indent?: number;
}

/** The chips of some attachments, one line (cut to the width). */
export function AttachmentChips({
  items,
  width,
  indent = 0,
}: AttachmentChipsProps): React.JSX.Element | null {
  if (items.length === 0) return null;
  const line = items.map(attachmentLabel).join(' ');
  return (
    <Box paddingLeft={indent}>
      <Text color={theme.muted}>{truncate(line, Math.max(10, width - indent))}</Text>
    </Box>
  );
}

/** The images attached to the next prompt, above the composer (nothing when none). */
export function PendingChips({
  pending,
  width,
}: {
  pending: PendingAttachments;
  width: number;
}): React.JSX.Element | null {
  const items = useSyncExternalStore(pending.subscribe, pending.getSnapshot);
  if (items.length === 0) return null;
  return <AttachmentChips items={items} width={width} />;
}
