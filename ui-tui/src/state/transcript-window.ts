/**
 * The bounded window of transcript items: appending with fresh ordinals (older items leave the
 * window; the terminal's scrollback keeps them), and older stored messages printed by `/history`
 * with the cursor that says how far back the TUI has loaded.
 */
import type { StoredMessage } from '@hermes/core/protocol';
import type { AttachResult } from '@hermes/client';
import { draftsFromHistory } from './history-items.js';
import type { ItemDraft, SessionState, TranscriptItem } from './types.js';

/** Most finished items kept in memory (older ones stay in the terminal's scrollback). */
export const MAX_ITEMS = 500;
/**
 * Appends drafts with fresh ordinals, trimming the window to `MAX_ITEMS` older items: what this
 * call appends always stays (it is not printed yet: a `/history` page of 500 messages with its
 * header and footer keeps its header and first message).
 * @param older the drafts are older messages printed by `/history` (not the newest reply): all of
 *   them, or those whose index it accepts.
 */
export function appendItems(
  state: SessionState,
  drafts: ItemDraft[],
  older: boolean | ((index: number) => boolean) = false,
): SessionState {
  if (drafts.length === 0) return state;
  const isOlder = typeof older === 'function' ? older : () => older;
  let n = state.nextN;
  const added: TranscriptItem[] = drafts.map((d, i) => ({
    ...d,
    n: n++,
    ...(isOlder(i) ? { older: true } : {}),
  }));
  const keep = Math.max(MAX_ITEMS, added.length);
  let items = state.items.concat(added);
  if (items.length > keep) items = items.slice(items.length - keep);
  let lastReply = state.lastReply;
  drafts.forEach((d, i) => {
    // a part printed while a reply streams is not the reply; its last item carries the whole
    if (d.kind === 'assistant' && !isOlder(i) && !d.part) lastReply = d.whole ?? d.text;
  });
  return { ...state, items, nextN: n, lastReply };
}

/**
 * Prints messages older than the oldest loaded one (`/history`) between a header and a footer.
 * `<Static>` cannot print above what the terminal already shows, so they come after it.
 */
export function applyOlder(state: SessionState, messages: StoredMessage[], hasMore: boolean): SessionState {
  const oldestMessageId = messages[0]?.id ?? state.oldestMessageId;
  if (messages.length === 0) return { ...state, hasMore: false, oldestMessageId };
  const count = `${messages.length} earlier message${messages.length === 1 ? '' : 's'}`;
  const end = hasMore ? 'older ones: /history again' : 'the session starts here';
  const page = draftsFromHistory(messages, null, state);
  // one append: the page stays whole in the window until printed (see appendItems)
  const s = appendItems(
    state,
    [
      { kind: 'notice', text: `── ${count} of this session ──`, tone: 'info' },
      ...page,
      { kind: 'notice', text: `── end of earlier messages (${end}) ──`, tone: 'info' },
    ],
    (i) => i > 0 && i <= page.length,
  );
  return { ...s, hasMore, oldestMessageId };
}

/** The history cursor after a snapshot: a same-session refetch keeps what `/history` loaded. */
export function oldestAfterSnapshot(
  state: SessionState,
  result: Extract<AttachResult, { kind: 'snapshot' }>,
  sameSession: boolean,
): Pick<SessionState, 'hasMore' | 'oldestMessageId'> {
  const first = result.messages[0]?.id ?? null;
  const kept = state.oldestMessageId;
  if (sameSession && kept !== null && (first === null || kept < first)) {
    return { hasMore: state.hasMore, oldestMessageId: kept };
  }
  return { hasMore: result.has_more, oldestMessageId: first };
}
