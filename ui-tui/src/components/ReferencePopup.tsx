/** The `@` completion popup under the composer: files, folders and the `@diff`/`@staged` keywords. */
import { formatBytes } from '@hermes/core/constants';
import { Box, Text } from 'ink';
import type { RefItem } from '../refs/use-reference-completion.js';
import { truncate } from './format.js';
import { theme } from './theme.js';

/** Props of `ReferencePopup`. */
export interface ReferencePopupProps {
  items: RefItem[];
  selected: number;
  width?: number;
  /** Most rows shown (default 8). */
  max?: number;
}

const ICON: Record<RefItem['kind'], string> = { file: '📄', folder: '📁', keyword: '±' };

/** Lists the matches; the selected one is marked with ❯ (visible without colours too). */
export function ReferencePopup({
  items,
  selected,
  width = 80,
  max = 8,
}: ReferencePopupProps): React.JSX.Element {
  const start = Math.max(0, Math.min(selected - max + 1, items.length - max));
  const shown = items.slice(start, start + max);
  return (
    <Box flexDirection="column" paddingX={1}>
      {shown.map((item, i) => {
        const on = start + i === selected;
        const note = item.description ?? (item.bytes !== undefined ? formatBytes(item.bytes) : '');
        const label = `${on ? '❯' : ' '} ${ICON[item.kind]} @${truncate(item.path, Math.max(10, width - 24))}`;
        return (
          <Text key={`${item.kind}:${item.path}`} wrap="truncate-end">
            <Text color={on ? theme.accent : undefined} bold={on} inverse={on}>
              {label}
            </Text>
            {note ? <Text color={theme.muted}> {note}</Text> : null}
          </Text>
        );
      })}
      {items.length > shown.length ? (
        <Text color={theme.muted}> … {items.length - shown.length} more</Text>
      ) : null}
    </Box>
  );
}
