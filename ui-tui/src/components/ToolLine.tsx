/**
 * One line per tool call: outcome mark, verb, short argument summary, result summary and
 * duration. Expanded, it shows details below: a coloured diff for file edits, else the result
 * text (its first and last lines) or the arguments. File edits always show their diff (shorter
 * when collapsed). A call the approval guard refused reads `✗ Blocked CMD (denied)`; a running
 * call whose approval is still open reads `⋯ Waiting for approval: CMD`.
 */
import { Box, Text } from 'ink';
import { colorDiff, editDiff } from '../markdown/diff.js';
import type { RunningToolView, ToolItem } from '../state/types.js';
import { cleanText, formatDuration, oneLine, truncate } from './format.js';
import { theme } from './theme.js';
import { argsSummary, todoList, toolVerb } from './tool-format.js';

/** Props of `ToolLine`. */
export interface ToolLineProps {
  /** A finished tool call, or a running one. */
  tool: ToolItem | RunningToolView;
  /** Show details (diff, result, arguments). */
  expanded?: boolean;
  /** Available columns. */
  width?: number;
  /** Clock for the running time of a running tool. */
  now?: number;
}

const DETAIL_LINES = 20;
const COLLAPSED_DIFF_LINES = 12;

function isFinished(t: ToolItem | RunningToolView): t is ToolItem {
  return 'ok' in t;
}

/** A tool call line. */
export function ToolLine({ tool, expanded = false, width = 80, now }: ToolLineProps): React.JSX.Element {
  const finished = isFinished(tool);
  const mark = !finished ? '⋯' : tool.ok === true ? '✓' : tool.ok === false ? '✗' : '•';
  const markColor = !finished
    ? theme.warn
    : tool.ok === true
      ? theme.ok
      : tool.ok === false
        ? theme.error
        : theme.muted;
  const blocked = finished ? tool.blocked : undefined;
  const verb =
    blocked !== undefined
      ? 'Blocked'
      : !finished && tool.awaitingApproval
        ? 'Waiting for approval:'
        : toolVerb(tool.name, !finished);
  const args = cleanText(argsSummary(tool.args, finished ? undefined : tool.summary));
  const result = cleanText(
    blocked !== undefined
      ? ''
      : finished
        ? oneLine(tool.summary)
        : tool.progress
          ? oneLine(tool.progress)
          : '',
  );
  const reason = blocked !== undefined ? cleanText(` (${oneLine(blocked)})`) : '';
  const ms = finished ? tool.durationMs : now !== undefined ? now - tool.startedAt : null;
  const duration = ms !== null && ms !== undefined ? formatDuration(ms) : '';
  const fixed = 2 + verb.length + 1 + reason.length + (duration ? duration.length + 3 : 0);
  const room = Math.max(10, width - fixed);
  const argText = truncate(args, Math.max(8, Math.floor(room * (result ? 0.6 : 1))));
  const resultText =
    result && result !== args ? truncate(result, Math.max(0, room - argText.length - 3)) : '';

  const diff = editDiff(tool.name, tool.args, expanded ? 40 : COLLAPSED_DIFF_LINES);
  const todos = finished && tool.name === 'todo' ? todoList(tool.args, tool.detail) : null;
  let details: string | null = null;
  if (diff) details = colorDiff(diff);
  else if (todos) details = capLines(cleanText(todos), DETAIL_LINES);
  else if (expanded && finished && tool.detail) details = capLines(cleanText(tool.detail), DETAIL_LINES);
  else if (expanded && Object.keys(tool.args).length)
    details = capLines(JSON.stringify(tool.args, null, 2), DETAIL_LINES);

  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text color={markColor}>{mark}</Text> <Text bold>{verb}</Text>
        {argText ? ` ${argText}` : ''}
        {reason ? <Text color={theme.muted}>{reason}</Text> : null}
        {resultText ? <Text color={theme.muted}> → {resultText}</Text> : null}
        {duration ? <Text color={theme.muted}> · {duration}</Text> : null}
      </Text>
      {details ? (
        <Box marginLeft={2}>
          <Text>{details}</Text>
        </Box>
      ) : null}
    </Box>
  );
}

/**
 * At most `max` lines of a text: the first ones and the last ones (where a command's errors and
 * exit code are), with `… N more lines …` between them.
 */
export function capLines(text: string, max: number): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  if (lines.length <= max) return lines.join('\n');
  const tail = Math.floor(max / 2);
  const head = max - tail;
  const hidden = lines.length - max;
  return [
    ...lines.slice(0, head),
    `… ${hidden} more line${hidden === 1 ? '' : 's'} …`,
    ...lines.slice(-tail),
  ].join('\n');
}
