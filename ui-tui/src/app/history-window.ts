/**
 * What `/history` prints and where it starts. The transcript shows a session's newest messages;
 * `/history [N]` prints up to N stored messages older than the oldest one loaded. After `/clear`
 * it starts again from the messages stored when the screen was cleared, so they can be printed
 * again (newest page first, then older ones).
 */
import type { DaemonClientLike } from '@hermes/client';
import type { SessionAction } from '../state/session-reducer.js';
import type { SessionState } from '../state/types.js';

/** The controller's parts these use. */
export interface HistoryHost {
  readonly state: SessionState;
  readonly client: DaemonClientLike;
  dispatch(action: SessionAction): void;
  notice(text: string, tone?: 'info' | 'warn' | 'error'): void;
}

/**
 * Prints up to `limit` stored messages older than the oldest one loaded. They follow what the
 * terminal already shows, between a header and a footer (`<Static>` prints once and cannot insert
 * above); the scrollback above keeps what was printed before.
 */
export async function loadOlder(h: HistoryHost, limit: number): Promise<void> {
  const { sessionId, oldestMessageId, hasMore } = h.state;
  if (!sessionId) return h.notice('No session attached.', 'warn');
  if (oldestMessageId === null || !hasMore) return h.notice('No older messages in this session.');
  const r = await h.client.request('session.history', {
    session_id: sessionId,
    before: oldestMessageId,
    limit,
  });
  if (h.state.sessionId !== sessionId) return;
  h.dispatch({ type: 'older', messages: r.messages, hasMore: r.has_more });
}

/**
 * Clears the screen's transcript (the session is kept); `/history` then starts after the newest
 * message stored now, so what was cleared can be printed again.
 */
export async function clearTranscript(h: HistoryHost): Promise<void> {
  const sessionId = h.state.sessionId;
  h.dispatch({ type: 'clear' });
  if (!sessionId) return;
  let newest: number | undefined;
  try {
    const r = await h.client.request('session.history', { session_id: sessionId, limit: 1 });
    newest = r.messages.at(-1)?.id;
  } catch {
    return; // /history then goes on from where it was
  }
  if (newest !== undefined && h.state.sessionId === sessionId)
    h.dispatch({ type: 'historyFrom', before: newest + 1 });
}
