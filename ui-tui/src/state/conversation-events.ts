/**
 * How the transcript shows conversation control: guidance given to a running turn
 * (`prompt.steered`) and a conversation that went back (`session.rewound`; the controller then
 * reloads the transcript, controller-conversation.ts).
 */
import type { WireEventOf } from '@hermes/core/protocol';
import { appendItems } from './transcript-window.js';
import type { SessionState } from './types.js';

/** Longest guidance text quoted in a notice, characters. */
const QUOTE_CHARS = 120;

const quote = (text: string): string => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > QUOTE_CHARS ? `${one.slice(0, QUOTE_CHARS - 1)}…` : one;
};

/** The line a TUI prints after reloading a rewound transcript (`session.rewound`). */
export function rewoundNotice(p: WireEventOf<'session.rewound'>['payload']): string {
  const what = p.reason === 'retry' ? 'Retrying' : p.reason === 'undo' ? 'Undone' : 'Rewound';
  const files = p.files ? `\n${p.files}` : '';
  return `${what}: ${p.removed} message(s) removed, back to before “${quote(p.text)}”.${files}`;
}

/**
 * Applies `prompt.steered` or `session.rewound` of the attached session. A rewind adds nothing
 * here: the controller clears the screen, reloads the transcript and then prints `rewoundNotice`.
 */
export function applyConversationEvent(
  s: SessionState,
  ev: WireEventOf<'prompt.steered' | 'session.rewound'>,
): SessionState {
  if (ev.type === 'session.rewound') return s;
  const p = ev.payload;
  if (p.state === 'delivered') return appendItems(s, [{ kind: 'user', text: p.text, guidance: true }]);
  if (p.state === 'pending')
    return appendItems(s, [
      { kind: 'notice', text: `Guidance waits for the next step: “${quote(p.text)}”`, tone: 'info' },
    ]);
  return appendItems(s, [
    {
      kind: 'notice',
      text: `No step left in the turn: the guidance runs as the next prompt (“${quote(p.text)}”).`,
      tone: 'info',
    },
  ]);
}
