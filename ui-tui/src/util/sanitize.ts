/** Removing control characters from untrusted text before it reaches the terminal. */

// C0 controls except tab and newline, DEL, and C1 controls: never pass untrusted text's escape
// sequences (cursor moves, OSC 52 clipboard writes, …) to the terminal. Bidi overrides and
// isolates too: they reorder what follows them on screen (a file name or command shown reversed).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Text without control characters other than tab and newline, nor bidi overrides and isolates. */
export function stripControls(text: string): string {
  return text.replace(CONTROL, '');
}

/** Text safe to print: control characters removed (tabs become two spaces). */
export function cleanText(text: string): string {
  return stripControls(text.replace(/\t/g, '  '));
}
