/** The `@` completion popup under the composer: files, folders and the `@diff`/`@staged` keywords. */
import { formatBytes } from '@hermes/core/constants';
import { Box, Text } from 'ink';
import type { RefItem } from '../refs/use-reference-completion.js';
import { MoreRow, popupRows } from './CompletionPopup.js';
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
  const { start, shown } = popupRows(items, selected, max);
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
      <MoreRow hidden={items.length - shown.length} />
    </Box>
  );
}
