/**
 * Text from others made safe to print on the owner's terminal. Chat messages, chat and user
 * names, tool output, model replies and server error texts may carry characters a terminal acts
 * on (escape sequences that move the cursor, set the title or write the clipboard — OSC 52 —, a
 * carriage return that overwrites the line, a bell) or that reorder what is shown (bidi
 * overrides): printed, they become U+FFFD instead.
 */

import { TERMINAL_CONTROL_CHARS } from '@hermes/core/constants';

/** `text` with every character a terminal would act on, or that reorders text, as U+FFFD; tabs and newlines stay. */
export function inert(text: string): string {
  return text.replace(TERMINAL_CONTROL_CHARS, '\ufffd');
}

/** `inert(text)` on one line: whitespace runs (newlines included) become single spaces. */
export function inertLine(text: string): string {
  return inert(text).replace(/\s+/g, ' ').trim();
}
