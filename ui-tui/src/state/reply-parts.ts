/**
 * Where a streaming reply's finished blocks end, found as the text grows (each delta scanned once).
 *
 * A reply streams into the live part of the screen; redrawing all of it every frame costs the
 * whole reply's size, so its finished blocks are printed once into the transcript (the terminal's
 * scrollback) while it streams and only the block still growing stays live. A block is finished
 * when the reply has moved past it: a blank line outside fenced code, then a line that starts in
 * column 0 or 1 (a new paragraph, heading, list, fence, table or quote). A line indented by two or
 * more after a blank line may still belong to the block before it (a list item's next paragraph,
 * its nested code: a list item's content starts at column 2 at least), so the reply is not cut
 * there; neither inside fenced code.
 */
import { assistantDraft } from './event-items.js';
import type { AssistantItem, ItemDraft, NoticeItem, StreamingReply } from './types.js';

/** How far a reply's text has been scanned (values only; the reducer keeps it in its state). */
export interface ReplyScan {
  /** Index in the text of the first line not scanned yet (always a line start). */
  pos: number;
  /** The fence (``` or ~~~ run) of the fenced code the scan is in; null outside code. */
  fence: string | null;
  /** Whether the last scanned line was blank (outside code). */
  blank: boolean;
  /** Whether a non-blank line was scanned since the last cut (a cut never makes an empty part). */
  content: boolean;
  /** Index where the newest finished part ends (the start of the block after it); 0: none yet. */
  cut: number;
}

/** The scan of a reply that has not started. */
export const EMPTY_SCAN: ReplyScan = { pos: 0, fence: null, blank: false, content: false, cut: 0 };

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * Scans the lines of `text` after `scan.pos` (`text` only ever grows by appending). The last
 * line, while it has no newline yet, is looked at but not consumed: its first character already
 * says whether a new block starts there.
 * @returns the new scan (the same object when nothing changed).
 */
export function scanReply(scan: ReplyScan, text: string): ReplyScan {
  let { pos, fence, blank, content, cut } = scan;
  const start = pos;
  for (;;) {
    const nl = text.indexOf('\n', pos);
    const line = nl < 0 ? text.slice(pos) : text.slice(pos, nl);
    if (line === '') {
      if (nl < 0) break; // nothing of the next line yet
    } else if (fence === null && blank && content && /^ ?\S/.test(line)) {
      cut = pos; // a new block starts after a blank line: everything before it is finished
      content = false;
    }
    if (nl < 0) break;
    const m = FENCE.exec(line);
    if (m) {
      const mark = m[1]!;
      if (fence === null) fence = mark;
      else if (mark[0] === fence[0] && mark.length >= fence.length && line.trim() === mark) fence = null;
    }
    const isBlank = line.trim() === '';
    blank = fence === null && isBlank && !m;
    if (!isBlank) content = true;
    pos = nl + 1;
  }
  if (pos === start && cut === scan.cut) return scan;
  return { pos, fence, blank, content, cut };
}

/** A new reply, nothing streamed yet. */
export function startReply(reasoning = ''): StreamingReply {
  return { text: '', reasoning, scan: EMPTY_SCAN };
}

/**
 * `reply` with `delta` appended; `part` is the text of blocks this delta finished (to print as a
 * part now), or null.
 */
export function growReply(
  reply: StreamingReply,
  delta: string,
): { reply: StreamingReply; part: string | null } {
  const text = reply.text + delta;
  const scan = scanReply(reply.scan, text);
  const printed = reply.scan.cut;
  const next = { ...reply, text, scan };
  if (scan.cut <= printed) return { reply: next, part: null };
  const part = text.slice(printed, scan.cut).trimEnd();
  return { reply: next, part: part.trim() ? part : null };
}

/** The item of a finished block printed while a reply streams. */
export function partDraft(text: string): AssistantItem {
  return { kind: 'assistant', text, status: 'complete', part: true };
}

/**
 * The item that ends a reply whose first `printed` characters of `streamed` were printed as parts:
 * the rest of `whole` (the reply as finished), carrying `whole`. When `whole` does not start with
 * what was printed (it was rewritten), all of it, so nothing is lost. A reply with nothing left but
 * a status to note gives a note. Null when there is nothing to show.
 */
export function lastPartDraft(
  whole: string,
  status: string,
  streamed: string,
  printed: number,
): AssistantItem | NoticeItem | null {
  if (printed <= 0 || !whole.startsWith(streamed.slice(0, printed))) return assistantDraft(whole, status);
  const rest = whole.slice(printed);
  if (rest.trim()) return { kind: 'assistant', text: rest, status: status || 'complete', whole };
  const note = REPLY_STATUS_NOTES[status];
  return note ? { kind: 'notice', text: note, tone: 'info' } : null;
}

/** What the status of an unfinished reply adds under it. */
export const REPLY_STATUS_NOTES: Readonly<Record<string, string>> = {
  interrupted: '(interrupted)',
  error: '(ended with an error)',
  max_turns: '(stopped: too many steps)',
};

/**
 * The live reply after a snapshot: the in-flight `text`, continuing what this TUI had already
 * printed of it as parts when `shown` (the reply it was streaming, same session) is its beginning;
 * otherwise scanned afresh.
 * @returns the reply and the text of blocks finished already, to print now as a part (or null).
 */
export function resumeReply(
  shown: StreamingReply | null,
  text: string,
  reasoning: string,
): { reply: StreamingReply; part: string | null } {
  const cut = shown?.scan.cut ?? 0;
  if (shown && cut > 0 && text.startsWith(shown.text.slice(0, cut))) {
    const { pos } = shown.scan;
    if (text.startsWith(shown.text.slice(0, pos))) {
      return growReply({ text: text.slice(0, pos), reasoning, scan: shown.scan }, text.slice(pos));
    }
    const scan: ReplyScan = { pos: cut, fence: null, blank: false, content: false, cut };
    return growReply({ text: text.slice(0, cut), reasoning, scan }, text.slice(cut));
  }
  return growReply(startReply(reasoning), text);
}

/**
 * The drafts of a same-session snapshot, with the reply this TUI was streaming (`shown`) ended
 * where it stopped printing it: when that reply finished while the TUI was away, its stored
 * message (the first reply of `drafts`, before any prompt) starts with what was printed as parts,
 * and only the rest is printed.
 * @returns the drafts, and whether `shown` was ended by one of them.
 */
export function endShownReply(
  shown: StreamingReply | null,
  drafts: ItemDraft[],
): { drafts: ItemDraft[]; ended: boolean } {
  const cut = shown?.scan.cut ?? 0;
  if (!shown || cut === 0) return { drafts, ended: false };
  const i = drafts.findIndex((d) => d.kind === 'assistant' || d.kind === 'user');
  const reply = drafts[i];
  if (reply?.kind !== 'assistant' || !reply.text.startsWith(shown.text.slice(0, cut))) {
    return { drafts, ended: false };
  }
  const last = lastPartDraft(reply.text, reply.status, shown.text, cut);
  return { drafts: [...drafts.slice(0, i), ...(last ? [last] : []), ...drafts.slice(i + 1)], ended: true };
}
