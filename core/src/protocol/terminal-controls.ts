/**
 * What a terminal acts on or what reorders text on screen, for clients that print text from
 * others (the TUI, the CLI): C0 controls but tab and newline (escape sequences, a carriage return
 * that overwrites the line, a bell), DEL, C1 controls, bidi overrides and isolates. Zod-free.
 */

/** Matches each such character (global: use with `replace`). */
// eslint-disable-next-line no-control-regex
export const TERMINAL_CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
