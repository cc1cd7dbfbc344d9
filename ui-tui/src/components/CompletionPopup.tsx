/** The slash-command completion popup under the composer. */
import { Box, Text } from 'ink';
import type { SlashCommand } from '../commands/table.js';
import { truncate } from './format.js';
import { theme } from './theme.js';

/** Props of `CompletionPopup`. */
export interface CompletionPopupProps {
  items: SlashCommand[];
  /** Index of the highlighted item. */
  selected: number;
  width?: number;
  /** Most rows shown (default 8). */
  max?: number;
}

/** Lists matching commands; the selected one is marked with ❯ (visible without colours too). */
export function CompletionPopup({
  items,
  selected,
  width = 80,
  max = 8,
}: CompletionPopupProps): React.JSX.Element {
  const start = Math.max(0, Math.min(selected - max + 1, items.length - max));
  const shown = items.slice(start, start + max);
  const nameWidth = Math.max(...shown.map((c) => c.name.length + (c.args ? c.args.length + 1 : 0))) + 3;
  return (
    <Box flexDirection="column" paddingX={1}>
      {shown.map((c, i) => {
        const on = start + i === selected;
        const label = `${on ? '❯' : ' '} /${c.name}${c.args ? ` ${c.args}` : ''}`.padEnd(nameWidth + 2);
        return (
          <Text key={c.name} wrap="truncate-end">
            <Text color={on ? theme.accent : undefined} bold={on} inverse={on}>
              {label}
            </Text>
            <Text color={theme.muted}> {truncate(c.description, Math.max(10, width - nameWidth - 8))}</Text>
          </Text>
        );
      })}
      {items.length > shown.length ? (
        <Text color={theme.muted}> … {items.length - shown.length} more</Text>
      ) : null}
    </Box>
  );
}
