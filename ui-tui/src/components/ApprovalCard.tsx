/**
 * An approval card: the command the agent wants to run (wrapped; long ones capped with
 * "+N more lines"), why it is flagged, and the choices once / this session / always / deny picked
 * by explicit keys (`o s a d` or `1`–`4`). The card takes a key only once it is armed (shown
 * `APPROVAL_ARM_MS`, and no typing for `APPROVAL_BURST_MS`); every key it does not take goes on
 * to the composer through `onPassKey`, in order, so text typed across the card's arrival stays the
 * user's. `always` and `session` need Enter to confirm; a bare Enter never approves; Esc cancels a
 * selection, or denies. The rule in full: approval-gate.ts.
 */
import { Box, Text, useInput, type Key } from 'ink';
import { useEffect, useReducer, useRef, useState } from 'react';
import wrapAnsi from 'wrap-ansi';
import type { ApprovalParams } from '../state/types.js';
import {
  ApprovalKeyGate,
  DEFAULT_TIMING,
  needsConfirm,
  systemClock,
  type ApprovalChoice,
  type CardClock,
  type GateChoice,
  type GateTiming,
} from './approval-gate.js';
import { approvalScope } from './approval-scope.js';
import { cleanText, formatElapsed } from './format.js';
import { DiffView } from './DiffView.js';
import { useNow } from './hooks.js';
import { theme } from './theme.js';

export type { ApprovalChoice } from './approval-gate.js';

/** The choices in card order with their keys and labels. */
export const APPROVAL_CHOICES: ReadonlyArray<GateChoice & { label: string }> = [
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
  /** Receives, in order, every key the card does not take (the App feeds them to the composer). */
  onPassKey?: (input: string, key: Key) => void;
  /** Characters in the composer's draft (shown: the draft is kept). */
  draftChars?: number;
  width?: number;
  /** Other requests waiting after this one. */
  waiting?: number;
  /** Listen to keys (default true). */
  isActive?: boolean;
  /** Time and timers (default the real clock; tests pass a manual one). */
  clock?: CardClock;
  /** Arming interval and burst gap, ms (default `APPROVAL_ARM_MS` / `APPROVAL_BURST_MS`). */
  timing?: GateTiming;
  /** Most diff lines of a file edit's card (default `DIFF_CARD_LINES`); the App fits it to the terminal. */
  maxDiffLines?: number;
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

/** "o, s, a, d or 1-4" for the offered choices. */
function keysText(offered: readonly GateChoice[]): string {
  const nums = offered.map((o) => o.num);
  const range = nums.join('') === '1234' ? '1-4' : nums.join(', ');
  return `${offered.map((o) => o.key).join(', ')} or ${range}`;
}

/** What a confirmed `session` / `always` allows, from a daemon that sends no `allows` (the whole class). */
const CONFIRM: Record<'session' | 'always', string> = {
  session: 'This session allows commands flagged like this one until the session ends.',
  always: 'Always allows commands flagged like this one from now on (config.yaml command_allowlist).',
};

/** What a confirmed `session` / `always` allows when the card names the entries (`allows`). */
const CONFIRM_ENTRIES: Record<'session' | 'always', string> = {
  session: 'This session allows only what is named above, until the session ends.',
  always: 'Always allows only what is named above, from now on (config.yaml command_allowlist).',
};

/** The approval card. */
export function ApprovalCard({
  params,
  onAnswer,
  onPassKey,
  draftChars = 0,
  width = 80,
  waiting = 0,
  isActive = true,
  clock = systemClock,
  timing = DEFAULT_TIMING,
  maxDiffLines,
}: ApprovalCardProps): React.JSX.Element {
  const offered = APPROVAL_CHOICES.filter(
    (c) => params.choices.length === 0 || params.choices.includes(c.choice) || c.choice === 'deny',
  );
  const gate = useRef<ApprovalKeyGate | null>(null);
  gate.current ??= new ApprovalKeyGate(offered, clock.now(), timing);
  const [enterHeld, setEnterHeld] = useState(false);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const answered = useRef(false);
  // the latest callbacks, for keys and timers that fire before a re-render
  const cb = useRef({ onAnswer, onPassKey });
  cb.current = { onAnswer, onPassKey };
  const answer = (choice: ApprovalChoice): void => {
    if (answered.current) return;
    answered.current = true;
    cb.current.onAnswer(choice);
  };
  const now = useNow(1000, params.expires_at !== undefined);
  const t = clock.now();

  // re-render when the card arms or a selection settles; answer a once/deny selection that stood
  const next = answered.current ? null : gate.current.nextChange(t); // as of this render
  useEffect(() => {
    if (next === null) return;
    const wake = (): void => {
      const due = gate.current!.due(clock.now());
      if (due) answer(due);
      rerender();
    };
    if (next <= clock.now()) return wake(); // the time came before this effect ran
    return clock.after(next - clock.now(), wake);
  });

  useInput(
    (input, key) => {
      const pass = (keys: ReadonlyArray<{ input: string; key: Key }>): void => {
        for (const k of keys) cb.current.onPassKey?.(k.input, k.key);
      };
      if (answered.current) return pass([{ input, key }]); // until the card is gone
      const r = gate.current!.key(input, key, clock.now());
      if (r.answer) answer(r.answer);
      pass(r.pass);
      setEnterHeld(r.enterHeld === true);
      rerender();
    },
    { isActive },
  );
  const inner = Math.max(10, width - 4);
  const { lines, more } = wrapCommand(cleanText(params.command), inner - 2);
  const scope = approvalScope(params);
  const left = params.expires_at !== undefined ? params.expires_at - now : null;
  const g = gate.current;
  const armed = g.armed(t);
  const selected = g.selected;
  const settled = g.settled(t);
  const label = (c: ApprovalChoice): string => offered.find((o) => o.choice === c)?.label ?? c;
  let status: string;
  let detail: string | null = null;
  if (selected && needsConfirm(selected)) {
    status = settled
      ? `Press Enter to confirm ${label(selected)}. Esc cancels.`
      : `${label(selected)} selected…`;
    if (settled) detail = (scope ? CONFIRM_ENTRIES : CONFIRM)[selected as 'session' | 'always'];
  } else if (selected) {
    status =
      selected === 'deny' ? 'Denying… (any key cancels)' : `Approving ${label(selected)}… (any key cancels)`;
  } else if (!armed) {
    status = 'Arming… keys go to your message until you pause. Esc denies.';
  } else {
    status = `Press ${keysText(offered)} to answer. Esc denies.`;
  }
  if (enterHeld && !selected)
    detail = 'Enter does not answer (and does not send your draft while the card is up).';
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warn} paddingX={1} width={width}>
      <Text color={theme.warn} bold>
        {params.edit ? `✎ Write ${cleanText(params.edit.path)}?` : '⚠ Approval needed'}
        {waiting > 0 ? <Text color={theme.muted}> (+{waiting} more waiting)</Text> : null}
      </Text>
      {params.edit ? (
        <DiffView
          diff={params.edit.diff}
          width={inner}
          {...(maxDiffLines !== undefined ? { maxLines: maxDiffLines } : {})}
        />
      ) : (
        <Box flexDirection="column" marginLeft={2}>
          {lines.map((l, i) => (
            <Text key={i} bold>
              {l}
            </Text>
          ))}
          {more > 0 ? <Text color={theme.muted}>+{more} more lines</Text> : null}
        </Box>
      )}
      {params.description ? <Text>Why: {cleanText(params.description)}</Text> : null}
      {scope ? <Text color={theme.muted}>{cleanText(scope)}</Text> : null}
      <Text>
        {offered.map((o, i) => (
          <Text key={o.choice}>
            {i > 0 ? '   ' : ''}
            <Text
              color={
                !armed && o.choice !== selected
                  ? theme.muted
                  : o.choice === 'deny'
                    ? theme.error
                    : theme.accent
              }
              bold={armed || o.choice === selected}
              inverse={o.choice === selected}
            >
              [{o.key}]
            </Text>{' '}
            <Text dimColor={!armed && o.choice !== selected}>{o.label}</Text>
          </Text>
        ))}
      </Text>
      <Text color={theme.muted}>
        {status}
        {left !== null ? ` Denied automatically in ${formatElapsed(Math.max(0, left))}.` : ''}
      </Text>
      {detail ? <Text color={theme.muted}>{detail}</Text> : null}
      {draftChars > 0 ? (
        <Text color={theme.muted}>
          Your draft is kept in the composer ({draftChars} {draftChars === 1 ? 'char' : 'chars'}).
        </Text>
      ) : null}
    </Box>
  );
}
