/** A list to pick from (sessions, models, profiles): Up/Down move, Enter picks, Esc closes. */
import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import { cleanText, truncate } from './format.js';
import { theme } from './theme.js';

/** One row of a picker. */
export interface PickerItem {
  label: string;
  /** Dimmed text after the label. */
  detail?: string;
}

/** Props of `Picker`. */
export interface PickerProps {
  title: string;
  items: PickerItem[];
  onPick: (index: number) => void;
  onCancel: () => void;
  width?: number;
  /** Rows shown at once (default 10). */
  max?: number;
  isActive?: boolean;
}

/** The picker. */
export function Picker({
  title,
  items,
  onPick,
  onCancel,
  width = 80,
  max = 10,
  isActive = true,
}: PickerProps): React.JSX.Element {
  const [sel, setSelState] = useState(0);
  // read by the key handler, which may run before React re-subscribes the latest one
  const selRef = useRef(0);
  const setSel = (i: number): void => {
    selRef.current = i;
    setSelState(i);
  };
  useInput(
    (_input, key) => {
      const cur = selRef.current;
      const last = items.length - 1;
      if (key.escape) return onCancel();
      if (key.upArrow) return setSel(Math.max(0, cur - 1));
      if (key.downArrow) return setSel(Math.max(0, Math.min(last, cur + 1)));
      if (key.pageUp) return setSel(Math.max(0, cur - max));
      if (key.pageDown) return setSel(Math.max(0, Math.min(last, cur + max)));
      if (key.return && items.length > 0) onPick(cur);
    },
    { isActive },
  );
  const start = Math.max(0, Math.min(sel - Math.floor(max / 2), items.length - max));
  const shown = items.slice(start, start + max);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1} width={width}>
      <Text bold>{title}</Text>
      {items.length === 0 ? <Text color={theme.muted}>(nothing to show)</Text> : null}
      {shown.map((it, i) => {
        const on = start + i === sel;
        const label = truncate(cleanText(it.label), Math.max(10, Math.floor((width - 6) * 0.5)));
        return (
          <Text key={start + i} wrap="truncate-end">
            <Text color={on ? theme.accent : undefined} bold={on}>
              {on ? '❯ ' : '  '}
              {label}
            </Text>
            {it.detail ? <Text color={theme.muted}> {cleanText(it.detail)}</Text> : null}
          </Text>
        );
      })}
      <Text color={theme.muted}>↑/↓ move · Enter picks · Esc closes</Text>
    </Box>
  );
}
