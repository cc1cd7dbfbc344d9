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

/**
 * The rows a popup of at most `max` rows shows so that `selected` stays in view.
 * @returns the index of the first row shown and the rows.
 */
export function popupRows<T>(items: T[], selected: number, max: number): { start: number; shown: T[] } {
  const start = Math.max(0, Math.min(selected - max + 1, items.length - max));
  return { start, shown: items.slice(start, start + max) };
}

/** The popup's last line when some items did not fit (nothing otherwise). */
export function MoreRow({ hidden }: { hidden: number }): React.JSX.Element | null {
  return hidden > 0 ? <Text color={theme.muted}> … {hidden} more</Text> : null;
}

/** Lists matching commands; the selected one is marked with ❯ (visible without colours too). */
export function CompletionPopup({
  items,
  selected,
  width = 80,
  max = 8,
}: CompletionPopupProps): React.JSX.Element {
  const { start, shown } = popupRows(items, selected, max);
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
      <MoreRow hidden={items.length - shown.length} />
    </Box>
  );
}

/** Props of `ArgumentPopup`. */
export interface ArgumentPopupProps {
  items: Array<{ label: string; detail: string }>;
  selected: number;
  width?: number;
  max?: number;
}

/** Lists completions of a command's argument (`/model deepseek/…`), the selected one marked ❯. */
export function ArgumentPopup({
  items,
  selected,
  width = 80,
  max = 8,
}: ArgumentPopupProps): React.JSX.Element {
  const { start, shown } = popupRows(items, selected, max);
  const labelWidth = Math.min(Math.max(...shown.map((c) => c.label.length)) + 3, Math.floor(width / 2));
  return (
    <Box flexDirection="column" paddingX={1}>
      {shown.map((c, i) => {
        const on = start + i === selected;
        const label = `${on ? '❯' : ' '} ${c.label}`.padEnd(labelWidth + 2);
        return (
          <Text key={c.label} wrap="truncate-end">
            <Text color={on ? theme.accent : undefined} bold={on} inverse={on}>
              {label}
            </Text>
            <Text color={theme.muted}> {truncate(c.detail, Math.max(10, width - labelWidth - 8))}</Text>
          </Text>
        );
      })}
      <MoreRow hidden={items.length - shown.length} />
    </Box>
  );
}
