/**
 * Removing what a terminal would act on from untrusted text before it reaches the terminal:
 * escape sequences' controls (cursor moves, OSC 52 clipboard writes, …) and bidi overrides and
 * isolates, which reorder what follows them (`TERMINAL_CONTROL_CHARS`).
 */

import { TERMINAL_CONTROL_CHARS } from '@hermes/core/constants';

/** Text without control characters other than tab and newline, nor bidi overrides and isolates. */
export function stripControls(text: string): string {
  return text.replace(TERMINAL_CONTROL_CHARS, '');
}

/** Text safe to print: control characters removed (tabs become two spaces). */
export function cleanText(text: string): string {
  return stripControls(text.replace(/\t/g, '  '));
}
