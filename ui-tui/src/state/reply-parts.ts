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
 *
 * What a block carries into the next (ordered-list numbering, reference links) is in
 * markdown/continuation.ts: a block that may use a reference link is not cut, nor anything after
 * it (`ReplyScan.hold`), so the reply's end, where the definitions usually are, prints with it.
 */
import {
  continueBlocks,
  continueFirstLine,
  hasReferenceCandidate,
  referenceDefinitions,
  startsOrderedItem,
} from '../markdown/continuation.js';
import { fenceAfter } from '../markdown/streaming.js';
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
  /**
   * Set once a line after `cut` may use a reference link (`[text][ref]`, `[text]`): nothing more
   * is cut, the rest prints when the reply ends, with the definitions it usually ends with.
   */
  hold?: boolean;
  /** Lines scanned while `hold` was set. */
  held?: number;
  /**
   * Set when a hold outgrew `HOLD_MAX_LINES`: the reply is cut again as usual and never held
   * again (its early reference links may print literally; its text is never kept off the
   * scrollback for long).
   */
  holdSpent?: boolean;
}

/**
 * Most lines a reply is held back for a possible reference link. Past it the held blocks print as
 * they are: a long reply with a bracketed word early (a `[1]` citation, `[optional]`) scrolls
 * into the scrollback as it streams rather than only showing its last screenful.
 */
export const HOLD_MAX_LINES = 40;

/** The scan of a reply that has not started. */
export const EMPTY_SCAN: ReplyScan = { pos: 0, fence: null, blank: false, content: false, cut: 0 };

/**
 * Scans the lines of `text` after `scan.pos` (`text` only ever grows by appending). The last
 * line, while it has no newline yet, is looked at but not consumed: its first character already
 * says whether a new block starts there.
 * @returns the new scan (the same object when nothing changed).
 */
export function scanReply(scan: ReplyScan, text: string): ReplyScan {
  let { pos, fence, blank, content, cut } = scan;
  let hold = scan.hold ?? false;
  let held = scan.held ?? 0;
  let holdSpent = scan.holdSpent ?? false;
  const start = pos;
  for (;;) {
    const nl = text.indexOf('\n', pos);
    const line = nl < 0 ? text.slice(pos) : text.slice(pos, nl);
    if (line === '') {
      if (nl < 0) break; // nothing of the next line yet
    } else if (fence === null && blank && content && !hold && /^ ?\S/.test(line)) {
      cut = pos; // a new block starts after a blank line: everything before it is finished
      content = false;
    }
    if (nl < 0) break;
    const outside = fence === null;
    fence = fenceAfter(line, fence);
    if (!hold && !holdSpent && outside && fence === null && hasReferenceCandidate(line)) hold = true;
    if (hold && ++held > HOLD_MAX_LINES) {
      hold = false;
      holdSpent = true;
    }
    const isBlank = line.trim() === '';
    blank = fence === null && isBlank;
    if (!isBlank) content = true;
    pos = nl + 1;
  }
  if (pos === start && cut === scan.cut) return scan;
  return {
    pos,
    fence,
    blank,
    content,
    cut,
    ...(hold ? { hold, held } : {}),
    ...(holdSpent ? { holdSpent } : {}),
  };
}

/** A new reply, nothing streamed yet. */
export function startReply(reasoning = ''): StreamingReply {
  return { text: '', reasoning, scan: EMPTY_SCAN };
}

/** The text of `reply` printed as parts already (an earlier attempt's, while `skip` is set). */
export function printedText(reply: StreamingReply): string {
  return reply.skip ?? reply.text.slice(0, reply.scan.cut);
}

/** The text of `reply` to draw live: what is not printed as parts. */
export function liveText(reply: StreamingReply): string {
  return reply.skip !== undefined
    ? ''
    : continueFirstLine(reply.text.slice(reply.scan.cut), reply.list ?? null);
}

/**
 * The reply after a `message.start` that came while `reply` streamed (the model call was retried
 * after text had streamed): what `reply` printed as parts stays printed, and the new attempt is not
 * printed again while it repeats it (`skip`).
 */
export function restartReply(reply: StreamingReply | null): StreamingReply {
  const printed = reply ? printedText(reply) : '';
  return printed ? { ...startReply(), skip: printed } : startReply();
}

/** Told before a reply that starts over after parts of an earlier attempt were printed. */
export const RESTART_NOTE: NoticeItem = {
  kind: 'notice',
  text: '↻ The reply started over (the model call was retried); the text above was cut short.',
  tone: 'info',
};

/**
 * `reply` with `delta` appended; `part` is the text of blocks this delta finished (to print as a
 * part now), or null. While `reply.skip` is set, text that repeats it is not printed nor live;
 * once past it the reply goes on from there; when it differs (`restarted`), the reply starts over
 * from its first character (RESTART_NOTE goes before its parts).
 */
export function growReply(
  reply: StreamingReply,
  delta: string,
): { reply: StreamingReply; part: string | null; restarted?: true } {
  if (reply.skip !== undefined) {
    const { skip, reasoning } = reply;
    const all = reply.text + delta;
    if (skip.startsWith(all)) return { reply: { ...reply, text: all }, part: null };
    if (all.startsWith(skip)) {
      const cut = skip.length;
      const scan: ReplyScan = { pos: cut, fence: null, blank: false, content: false, cut };
      const { end } = continueBlocks(skip, null);
      return growReply({ text: all.slice(0, cut), reasoning, scan, list: end }, all.slice(cut));
    }
    return { ...growReply(startReply(reasoning), all), restarted: true };
  }
  const text = reply.text + delta;
  const scan = scanReply(reply.scan, text);
  const printed = reply.scan.cut;
  const next = { ...reply, text, scan };
  if (scan.cut <= printed) return { reply: next, part: null };
  const part = text.slice(printed, scan.cut).trimEnd();
  if (!part.trim()) return { reply: next, part: null };
  // an ordered list the printed parts ended with goes on in this part (its numbers by markdown)
  const numbered = continueBlocks(part, reply.list ?? null);
  return { reply: { ...next, list: numbered.end }, part: numbered.text };
}

/** The item of a finished block printed while a reply streams. */
export function partDraft(text: string): AssistantItem {
  return { kind: 'assistant', text, status: 'complete', part: true };
}

/**
 * The item that ends a reply of which `printed` (its beginning) was printed as parts: the rest of
 * `whole` (the reply as finished), carrying `whole`. When `whole` ends within what was printed,
 * only a note of its status. When `whole` does not start with what was printed (it was rewritten),
 * all of it, so nothing is lost. A reply interrupted before any text came (a model that had not
 * answered yet) is the note `(interrupted)`, so the prompt does not stand there unanswered. Null
 * when there is nothing to show.
 */
export function lastPartDraft(
  whole: string,
  status: string,
  printed: string,
): AssistantItem | NoticeItem | null {
  if (!printed || !(whole.startsWith(printed) || printed.startsWith(whole))) {
    const item = assistantDraft(whole, status);
    if (item || status !== 'interrupted') return item;
    return { kind: 'notice', text: REPLY_STATUS_NOTES.interrupted!, tone: 'info' };
  }
  const rest = whole.slice(printed.length);
  if (rest.trim())
    return { kind: 'assistant', text: restText(rest, printed), status: status || 'complete', whole };
  const note = REPLY_STATUS_NOTES[status];
  return note ? { kind: 'notice', text: note, tone: 'info' } : null;
}

/**
 * The text to render for the `rest` of a reply after its `printed` parts: its first block numbered
 * on from an ordered list the parts ended with, and the reference definitions the parts held
 * (printed there as nothing) added, so links in the rest resolve.
 */
function restText(rest: string, printed: string): string {
  const lead = /^\s*\n/.exec(rest)?.[0] ?? '';
  const body = rest.slice(lead.length);
  // the printed text is read again only when the rest may go on with a list of it
  const text = startsOrderedItem(body)
    ? lead + continueFirstLine(body, continueBlocks(printed, null).end)
    : rest;
  const defs = referenceDefinitions(printed);
  return defs.length ? `${text}\n\n${defs.join('\n')}` : text;
}

/** Whether a reply that ended as `whole` is not a continuation of the `printed` parts. */
export function rewritten(whole: string, printed: string): boolean {
  return printed !== '' && !whole.startsWith(printed) && !printed.startsWith(whole);
}

/** What the status of an unfinished reply adds under it. */
export const REPLY_STATUS_NOTES: Readonly<Record<string, string>> = {
  interrupted: '(interrupted)',
  error: '(ended with an error)',
  max_turns: '(stopped: too many steps)',
};

/**
 * The live reply after a snapshot: the in-flight `text`, continuing what this TUI had already
 * printed of it as parts when `shown` (the reply it was streaming, same session) printed some:
 * from where its scan stopped when `text` goes on from there, else past the printed text (or
 * waiting while `text` repeats it); scanned afresh when nothing was printed, and started over
 * (`restarted`) when `text` differs from what was printed.
 * @returns the reply and the text of blocks finished already, to print now as a part (or null).
 */
export function resumeReply(
  shown: StreamingReply | null,
  text: string,
  reasoning: string,
): { reply: StreamingReply; part: string | null; restarted?: true } {
  const printed = shown ? printedText(shown) : '';
  if (!shown || !printed) return growReply(startReply(reasoning), text);
  const { pos } = shown.scan;
  if (shown.skip === undefined && text.startsWith(shown.text.slice(0, pos))) {
    return growReply(
      { text: text.slice(0, pos), reasoning, scan: shown.scan, ...(shown.list ? { list: shown.list } : {}) },
      text.slice(pos),
    );
  }
  return growReply({ ...startReply(reasoning), skip: printed }, text);
}

/**
 * The drafts of a same-session snapshot, with the reply this TUI was streaming (`shown`) ended
 * where it stopped printing it: when that reply finished while the TUI was away, its stored
 * message (the first reply of `drafts`, before any prompt) starts with what was printed as parts,
 * and only the rest is printed; when it ended within what was printed (a daemon that died kept an
 * older checkpoint of it), only its status note.
 * @returns the drafts, whether `shown` was ended by one of them, and then the reply as stored
 *   (`whole`: what `/copy` copies, also when only a note of it is printed).
 */
export function endShownReply(
  shown: StreamingReply | null,
  drafts: ItemDraft[],
): { drafts: ItemDraft[]; ended: boolean; whole?: string } {
  const printed = shown ? printedText(shown) : '';
  if (!printed) return { drafts, ended: false };
  const i = drafts.findIndex((d) => d.kind === 'assistant' || d.kind === 'user');
  const reply = drafts[i];
  if (reply?.kind !== 'assistant' || rewritten(reply.text, printed)) return { drafts, ended: false };
  const last = lastPartDraft(reply.text, reply.status, printed);
  return {
    drafts: [...drafts.slice(0, i), ...(last ? [last] : []), ...drafts.slice(i + 1)],
    ended: true,
    whole: reply.text,
  };
}
