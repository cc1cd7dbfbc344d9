/**
 * A question from the agent: its choices (picked with 1–9 while nothing is typed) plus a free-text
 * answer (Enter sends it). Esc cancels (the agent is told there was no answer).
 */
import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import type { ClarifyParams } from '../state/types.js';
import * as ed from './editor.js';
import { cleanText, stripControls } from './format.js';
import { theme } from './theme.js';
import { withCursor } from './Composer.js';

/** Props of `ClarifyPrompt`. */
export interface ClarifyPromptProps {
  params: ClarifyParams;
  /** The answer, or null when cancelled. */
  onAnswer: (answer: string | null) => void;
  width?: number;
  isActive?: boolean;
}

/** The question prompt. */
export function ClarifyPrompt({
  params,
  onAnswer,
  width = 80,
  isActive = true,
}: ClarifyPromptProps): React.JSX.Element {
  const [state, setState] = useState<ed.EditorState>(ed.EMPTY);
  const ref = useRef(state);
  const done = useRef(false);
  const choices = params.choices ?? [];
  const set = (s: ed.EditorState): void => {
    ref.current = s;
    setState(s);
  };
  const answer = (a: string | null): void => {
    if (done.current) return;
    done.current = true;
    onAnswer(a);
  };
  useInput(
    (input, key) => {
      const s = ref.current;
      if (key.escape) return answer(null);
      if (key.return) {
        if (s.text.trim()) answer(s.text.trim());
        return;
      }
      if (!s.text && /^[1-9]$/.test(input) && Number(input) <= choices.length) {
        return answer(choices[Number(input) - 1]!);
      }
      if (key.backspace || key.delete) return set(ed.backspace(s));
      if (key.leftArrow) return set(ed.moveChar(s, -1));
      if (key.rightArrow) return set(ed.moveChar(s, 1));
      if (key.ctrl && input === 'u') return set(ed.killToLineStart(s));
      if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow || !input) return;
      const typed = stripControls(input.replace(/\r$/, '').replace(/[\r\n]+/g, ' '));
      const next = ed.insert(s, typed);
      if (input.length > 1 && input.endsWith('\r') && next.text.trim()) return answer(next.text.trim());
      set(next);
    },
    { isActive },
  );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1} width={width}>
      <Text color={theme.accent} bold>
        ? {cleanText(params.question)}
      </Text>
      {choices.map((c, i) => (
        <Text key={i}>
          <Text color={theme.accent} bold>
            {' '}
            {i + 1}.
          </Text>{' '}
          {cleanText(c)}
        </Text>
      ))}
      <Text>
        <Text color={theme.accent}>› </Text>
        {withCursor(state)}
      </Text>
      <Text color={theme.muted}>
        {choices.length ? `1-${Math.min(9, choices.length)} picks a choice · ` : ''}type an answer and press
        Enter · Esc cancels
      </Text>
    </Box>
  );
}
