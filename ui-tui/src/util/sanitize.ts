/** Removing control characters from untrusted text before it reaches the terminal. */

// C0 controls except tab and newline, DEL, and C1 controls: never pass untrusted text's escape
// sequences (cursor moves, OSC 52 clipboard writes, …) to the terminal.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text without control characters other than tab and newline. */
export function stripControls(text: string): string {
  return text.replace(CONTROL, '');
}

/** Text safe to print: control characters removed (tabs become two spaces). */
export function cleanText(text: string): string {
  return stripControls(text.replace(/\t/g, '  '));
}
