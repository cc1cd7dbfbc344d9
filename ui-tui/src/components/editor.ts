/**
 * The text-editing model behind the composer and other inputs: text plus a cursor, and pure
 * operations on them (insert, delete, move by char/word/line). Positions are UTF-16 offsets.
 */

/** Text and cursor. */
export interface EditorState {
  text: string;
  cursor: number;
}

/** An empty editor. */
export const EMPTY: EditorState = { text: '', cursor: 0 };

/** Editor holding `text` with the cursor at its end. */
export function editorOf(text: string): EditorState {
  return { text, cursor: text.length };
}

/** Inserts text at the cursor. */
export function insert(s: EditorState, t: string): EditorState {
  return { text: s.text.slice(0, s.cursor) + t + s.text.slice(s.cursor), cursor: s.cursor + t.length };
}

function prevCharLen(text: string, at: number): number {
  if (at <= 0) return 0;
  const c = text.charCodeAt(at - 1);
  return c >= 0xdc00 && c <= 0xdfff && at >= 2 ? 2 : 1;
}

function nextCharLen(text: string, at: number): number {
  if (at >= text.length) return 0;
  const c = text.charCodeAt(at);
  return c >= 0xd800 && c <= 0xdbff && at + 1 < text.length ? 2 : 1;
}

/** Deletes the character before the cursor. */
export function backspace(s: EditorState): EditorState {
  const n = prevCharLen(s.text, s.cursor);
  return n ? { text: s.text.slice(0, s.cursor - n) + s.text.slice(s.cursor), cursor: s.cursor - n } : s;
}

/** Deletes the character under the cursor. */
export function deleteForward(s: EditorState): EditorState {
  const n = nextCharLen(s.text, s.cursor);
  return n ? { text: s.text.slice(0, s.cursor) + s.text.slice(s.cursor + n), cursor: s.cursor } : s;
}

/** Moves one character left or right. */
export function moveChar(s: EditorState, dir: -1 | 1): EditorState {
  const n = dir < 0 ? -prevCharLen(s.text, s.cursor) : nextCharLen(s.text, s.cursor);
  return { ...s, cursor: s.cursor + n };
}

/** Start offset of the word left of `at`. */
function wordStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(text[i - 1]!)) i--;
  return i;
}

/** Moves one word left or right. */
export function moveWord(s: EditorState, dir: -1 | 1): EditorState {
  if (dir < 0) return { ...s, cursor: wordStart(s.text, s.cursor) };
  let i = s.cursor;
  while (i < s.text.length && /\s/.test(s.text[i]!)) i++;
  while (i < s.text.length && !/\s/.test(s.text[i]!)) i++;
  return { ...s, cursor: i };
}

/** Deletes the word before the cursor (Ctrl+W). */
export function deleteWordBack(s: EditorState): EditorState {
  const start = wordStart(s.text, s.cursor);
  return { text: s.text.slice(0, start) + s.text.slice(s.cursor), cursor: start };
}

function lineBounds(text: string, at: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const nl = text.indexOf('\n', at);
  return { start, end: nl < 0 ? text.length : nl };
}

/** Moves to the start or end of the current line. */
export function moveLineEdge(s: EditorState, edge: 'start' | 'end'): EditorState {
  const b = lineBounds(s.text, s.cursor);
  return { ...s, cursor: edge === 'start' ? b.start : b.end };
}

/** Deletes from the line start to the cursor (Ctrl+U). */
export function killToLineStart(s: EditorState): EditorState {
  const b = lineBounds(s.text, s.cursor);
  return { text: s.text.slice(0, b.start) + s.text.slice(s.cursor), cursor: b.start };
}

/** Deletes from the cursor to the line end (Ctrl+K). */
export function killToLineEnd(s: EditorState): EditorState {
  const b = lineBounds(s.text, s.cursor);
  return { text: s.text.slice(0, s.cursor) + s.text.slice(b.end), cursor: s.cursor };
}

/** Moves one line up or down keeping the column; null when already on the first/last line. */
export function moveLine(s: EditorState, dir: -1 | 1): EditorState | null {
  const b = lineBounds(s.text, s.cursor);
  const col = s.cursor - b.start;
  if (dir < 0) {
    if (b.start === 0) return null;
    const prev = lineBounds(s.text, b.start - 1);
    return { ...s, cursor: prev.start + Math.min(col, prev.end - prev.start) };
  }
  if (b.end >= s.text.length) return null;
  const next = lineBounds(s.text, b.end + 1);
  return { ...s, cursor: next.start + Math.min(col, next.end - next.start) };
}

/** Deletes from the cursor to the end of the next word (Alt+D, Ctrl+Delete). */
export function deleteWordForward(s: EditorState): EditorState {
  const end = moveWord(s, 1).cursor;
  return { text: s.text.slice(0, s.cursor) + s.text.slice(end), cursor: s.cursor };
}
