/**
 * One-line text entry for cards and forms (model setup): how a key changes the field. Pasted text
 * (bracketed or not) joins the line; a chunk ending in Enter (`tmux send-keys "x" Enter`, SSH)
 * both types and submits. Whitespace is dropped: URLs, keys and model ids have none.
 */
import type { Key } from 'ink';
import * as ed from './editor.js';
import { stripControls } from './format.js';

/** What a key did to a one-line field. */
export interface FieldResult {
  state: ed.EditorState;
  /** Enter was pressed (after inserting any text of the same chunk). */
  submit: boolean;
}

const PASTE_MARKERS = new RegExp(`${String.fromCharCode(27)}?\\[20[01]~`, 'g');

/**
 * Applies one key to a one-line field.
 * @returns null when the key is not for the field (Esc, arrows up/down, Tab, other Ctrl keys).
 */
export function fieldKey(s: ed.EditorState, input: string, key: Key): FieldResult | null {
  if (key.escape || key.upArrow || key.downArrow || key.tab) return null;
  if (key.return) return { state: s, submit: true };
  if (key.backspace || key.delete) return { state: ed.backspace(s), submit: false };
  if (key.leftArrow) return { state: ed.moveChar(s, -1), submit: false };
  if (key.rightArrow) return { state: ed.moveChar(s, 1), submit: false };
  if (key.ctrl && input === 'u') return { state: ed.killToLineStart(s), submit: false };
  if (key.ctrl && input === 'a') return { state: ed.moveLineEdge(s, 'start'), submit: false };
  if (key.ctrl && input === 'e') return { state: ed.moveLineEdge(s, 'end'), submit: false };
  if (key.ctrl || key.meta || !input) return null;
  const raw = input.replace(PASTE_MARKERS, '');
  const submit = raw.length > 1 && raw.endsWith('\r');
  const typed = stripControls(raw.replace(/\r$/, '')).replace(/\s+/g, '');
  return { state: typed ? ed.insert(s, typed) : s, submit };
}
