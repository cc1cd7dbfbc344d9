/**
 * The editing keys of the composer, read from Ink's key report plus the raw sequence the terminal
 * sent. Ink 6 reports both DEL (0x7f, what the Backspace key sends) and `ESC [3~` (the Delete key)
 * as `key.delete`; only the raw sequence tells them apart. Alt+letter arrives as `ESC letter`,
 * which Ink reports as `key.meta` with the letter as input.
 */
import type { Key } from 'ink';

/** An editing action of the composer, or null when the key is not one of these. */
export type EditKey =
  | 'word-left'
  | 'word-right'
  | 'backspace'
  | 'delete-forward'
  | 'delete-word-back'
  | 'delete-word-forward'
  | 'suspend';

/**
 * True for the Delete key's sequences: `ESC [3~`, with modifiers `ESC [3;<mod>~`, rxvt's
 * `ESC [3$` / `ESC [3^`, and the kitty protocol's `ESC [3;<mod>:<event>~`.
 */
export function isForwardDelete(raw: string): boolean {
  return /\[3(;[\d:]*)?[~$^]$/.test(raw);
}

/**
 * Maps one key to an editing action.
 * @param raw the sequence the terminal sent for this key (empty when unknown: a key fed by a
 *   card, a test without it); used only to tell Delete from Backspace.
 */
export function editKeyOf(input: string, key: Key, raw: string): EditKey | null {
  if (key.backspace || key.delete) {
    if (key.delete && isForwardDelete(raw))
      return key.meta || key.ctrl ? 'delete-word-forward' : 'delete-forward';
    return key.meta || key.ctrl ? 'delete-word-back' : 'backspace';
  }
  if (key.leftArrow && (key.ctrl || key.meta)) return 'word-left';
  if (key.rightArrow && (key.ctrl || key.meta)) return 'word-right';
  if (key.ctrl && input === 'w') return 'delete-word-back';
  if (key.ctrl && input === 'z') return 'suspend';
  if (key.meta && !key.ctrl) {
    // Alt+B / Alt+F / Alt+D (emacs, readline); Alt+Shift+letter stays unbound
    if (input === 'b') return 'word-left';
    if (input === 'f') return 'word-right';
    if (input === 'd') return 'delete-word-forward';
  }
  return null;
}

/** C0 control characters read as keys of their own (Tab, LF and CR stay with the text: see below). */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL_KEY = /[\x01-\x08\x0b\x0c\x0e-\x1a\x7f]/;

/**
 * Editing keys (Backspace as DEL or BS, Ctrl+U, Ctrl+W): pasted text never holds them, so a chunk
 * with one was typed, and its CRs are Enter keys (not the line breaks of a paste).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const EDITING_KEY = /[\x08\x15\x17\x7f]/;

/** Whether a chunk of input holds an editing key (EDITING_KEY), so was typed rather than pasted. */
export function isTypedBurst(input: string): boolean {
  return EDITING_KEY.test(input);
}

/**
 * Splits a chunk of typed input that Ink reported as one key into the keys it holds, in order,
 * when control keys came with typed text ("text" then Ctrl+S, read in one chunk while the TUI was
 * busy): runs of text, and each control key with the key report Ink gives it alone (Ctrl+letter:
 * `ctrl` and the letter; BS: `backspace`; DEL: `delete`). Tab, LF and CR stay in the text runs,
 * where the composer tells a paste from keys typed ahead of an Enter — except in a chunk with an
 * editing key (EDITING_KEY: it was typed), where each CR is an Enter (`return`) of its own. Null
 * when the chunk holds no control key beside text (nothing to split).
 * @param base the chunk's key report (a multi-character chunk: no key flags set).
 */
export function splitControlKeys(input: string, base: Key): Array<{ input: string; key: Key }> | null {
  if (input.length < 2 || !CONTROL_KEY.test(input)) return null;
  const plain: Key = {
    ...base,
    ctrl: false,
    meta: false,
    shift: false,
    backspace: false,
    delete: false,
    return: false,
  };
  const out: Array<{ input: string; key: Key }> = [];
  const typed = isTypedBurst(input);
  let run = '';
  for (const ch of input) {
    if (typed && ch === '\r') {
      if (run) out.push({ input: run, key: plain });
      run = '';
      out.push({ input: '\r', key: { ...plain, return: true } });
      continue;
    }
    if (!CONTROL_KEY.test(ch)) {
      run += ch;
      continue;
    }
    if (run) out.push({ input: run, key: plain });
    run = '';
    const code = ch.charCodeAt(0);
    if (code === 0x7f) out.push({ input: '', key: { ...plain, delete: true } });
    else if (code === 0x08) out.push({ input: '', key: { ...plain, backspace: true } });
    else out.push({ input: String.fromCharCode(code + 0x60), key: { ...plain, ctrl: true } });
  }
  if (run) out.push({ input: run, key: plain });
  return out;
}
