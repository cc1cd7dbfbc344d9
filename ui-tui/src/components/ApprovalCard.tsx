/**
 * An approval card: the command the agent wants to run (wrapped; long ones capped with
 * "+N more lines"), why it is flagged, and the choices once / this session / always / deny picked
 * by explicit keys (`o s a d` or `1`–`4`). Nothing is pre-selected, so a bare Enter never
 * approves; Esc denies.
 */
import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import wrapAnsi from 'wrap-ansi';
import type { ApprovalParams } from '../state/types.js';
import { cleanText, formatElapsed } from './format.js';
import { useNow } from './hooks.js';
import { theme } from './theme.js';

/** An approval answer. */
export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny';

/** The choices in card order with their keys and labels. */
export const APPROVAL_CHOICES: ReadonlyArray<{
  choice: ApprovalChoice;
  key: string;
  num: string;
  label: string;
}> = [
  { choice: 'once', key: 'o', num: '1', label: 'once' },
  { choice: 'session', key: 's', num: '2', label: 'this session' },
  { choice: 'always', key: 'a', num: '3', label: 'always' },
  { choice: 'deny', key: 'd', num: '4', label: 'deny' },
];

/** Most command lines shown before "+N more lines". */
export const COMMAND_MAX_LINES = 8;

/** Props of `ApprovalCard`. */
export interface ApprovalCardProps {
  params: ApprovalParams;
  onAnswer: (choice: ApprovalChoice) => void;
  width?: number;
  /** Other requests waiting after this one. */
  waiting?: number;
  /** Listen to keys (default true). */
  isActive?: boolean;
}

/**
 * Wraps a command to `width` columns (each line keeps its indentation, continuation lines too) and
 * caps it at `max` lines.
 */
export function wrapCommand(
  command: string,
  width: number,
  max = COMMAND_MAX_LINES,
): { lines: string[]; more: number } {
  const lines: string[] = [];
  for (const line of command.split('\n')) {
    const indent = (/^\s*/.exec(line)?.[0] ?? '').slice(0, Math.floor(width / 2));
    const rest = line.trimStart();
    const wrapped = rest
      ? wrapAnsi(rest, Math.max(10, width - indent.length), { hard: true, trim: true })
      : '';
    for (const l of wrapped.split('\n')) lines.push(indent + l);
  }
  if (lines.length <= max) return { lines, more: 0 };
  return { lines: lines.slice(0, max), more: lines.length - max };
}

/** The approval card. */
export function ApprovalCard({
  params,
  onAnswer,
  width = 80,
  waiting = 0,
  isActive = true,
}: ApprovalCardProps): React.JSX.Element {
  const offered = APPROVAL_CHOICES.filter(
    (c) => params.choices.length === 0 || params.choices.includes(c.choice) || c.choice === 'deny',
  );
  const [hint, setHint] = useState(false);
  const answered = useRef(false);
  const now = useNow(1000, params.expires_at !== undefined);
  useInput(
    (input, key) => {
      if (answered.current) return;
      if (key.escape) {
        answered.current = true;
        onAnswer('deny');
        return;
      }
      const k = input.replace(/[\r\n]+$/, ''); // "o⏎" typed fast arrives as one chunk
      const c = offered.find((o) => k === o.key || k === o.key.toUpperCase() || k === o.num);
      if (c) {
        answered.current = true;
        onAnswer(c.choice);
        return;
      }
      if (key.return || input.length > 0) setHint(true);
    },
    { isActive },
  );
  const inner = Math.max(10, width - 4);
  const { lines, more } = wrapCommand(cleanText(params.command), inner - 2);
  const left = params.expires_at !== undefined ? params.expires_at - now : null;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warn} paddingX={1} width={width}>
      <Text color={theme.warn} bold>
        ⚠ Approval needed{waiting > 0 ? <Text color={theme.muted}> (+{waiting} more waiting)</Text> : null}
      </Text>
      <Box flexDirection="column" marginLeft={2}>
        {lines.map((l, i) => (
          <Text key={i} bold>
            {l}
          </Text>
        ))}
        {more > 0 ? <Text color={theme.muted}>+{more} more lines</Text> : null}
      </Box>
      {params.description ? <Text>Why: {cleanText(params.description)}</Text> : null}
      <Text>
        {offered.map((o, i) => (
          <Text key={o.choice}>
            {i > 0 ? '   ' : ''}
            <Text color={o.choice === 'deny' ? theme.error : theme.accent} bold>
              [{o.key}]
            </Text>{' '}
            {o.label}
          </Text>
        ))}
      </Text>
      <Text color={theme.muted}>
        {hint ? `Press ${offered.map((o) => o.key).join(', ')} or 1-4. ` : ''}Esc denies.
        {left !== null ? ` Denied automatically in ${formatElapsed(Math.max(0, left))}.` : ''}
      </Text>
    </Box>
  );
}
