/**
 * Long pastes in the composer: a paste of more than `PASTE_MAX_LINES` lines or `PASTE_MAX_CHARS`
 * characters shows as a chip (`[pasted 42 lines]`) in the text; the full text is kept beside it
 * and put back in place of the chip when the message is sent (or handed to `$EDITOR`).
 */

/** Most lines a paste shows as text; more collapse to a chip. */
export const PASTE_MAX_LINES = 10;
/** Most characters (UTF-16 units) a paste shows as text; more collapse to a chip. */
export const PASTE_MAX_CHARS = 2000;

/** The pastes shown as chips: chip label → the pasted text. */
export type PasteChips = Map<string, string>;

/** Whether a paste is long enough to collapse. */
export function isLongPaste(text: string): boolean {
  return text.length > PASTE_MAX_CHARS || text.split('\n').length > PASTE_MAX_LINES;
}

/**
 * Keeps `text` in `chips` and returns its chip label, unique among `chips`: `[pasted N lines]`
 * (`[pasted N chars]` for one long line), `#2`, `#3` … added when the same label is taken.
 */
export function addChip(chips: PasteChips, text: string): string {
  const lines = text.split('\n').length;
  const base = lines > 1 ? `pasted ${lines} lines` : `pasted ${text.length} chars`;
  let label = `[${base}]`;
  for (let n = 2; chips.has(label); n++) label = `[${base} #${n}]`;
  chips.set(label, text);
  return label;
}

/**
 * `text` with each chip label still in it (first occurrence each) replaced by its pasted text.
 * Labels are found in `text` as typed, so a pasted text that contains a label is left as it is.
 */
export function expandChips(text: string, chips: PasteChips): string {
  const found: Array<{ at: number; label: string }> = [];
  for (const label of chips.keys()) {
    const at = text.indexOf(label);
    if (at >= 0) found.push({ at, label });
  }
  let out = text;
  for (const { at, label } of found.sort((a, b) => b.at - a.at)) {
    out = out.slice(0, at) + chips.get(label)! + out.slice(at + label.length);
  }
  return out;
}

/**
 * The chip label that ends exactly at `cursor` in `text`, if any (Backspace there removes the
 * whole chip).
 */
export function chipBefore(text: string, cursor: number, chips: PasteChips): string | null {
  for (const label of chips.keys()) {
    if (cursor >= label.length && text.slice(cursor - label.length, cursor) === label) return label;
  }
  return null;
}
