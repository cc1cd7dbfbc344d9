/** Builders of protocol records for tests. */
import type { SessionInfo, StoredMessage, WireEvent } from '@hermes/core/protocol';
import type { AttachResult } from '@hermes/client';

/** A session record with defaults. */
export function sessionInfo(over: Partial<SessionInfo> = {}): SessionInfo {
  return {
    id: 's1',
    profile: 'default',
    title: 'Test session',
    source: 'tui',
    model: 'test-model',
    cwd: '/home/u/project',
    started_at: 1_000,
    ended_at: null,
    message_count: 0,
    state: 'active',
    live: true,
    busy: false,
    clients: 1,
    ...over,
  };
}

/** A full attach snapshot with defaults. */
export function snapshotResult(
  over: Partial<Extract<AttachResult, { kind: 'snapshot' }>> = {},
): Extract<AttachResult, { kind: 'snapshot' }> {
  return {
    kind: 'snapshot',
    session: sessionInfo(),
    messages: [],
    has_more: false,
    inflight: null,
    queued: [],
    open_requests: [],
    seq: 0,
    epoch: 'e1',
    ...over,
  };
}

let msgId = 1;
/** A stored message. */
export function stored(
  role: StoredMessage['role'],
  content: string,
  over: Partial<StoredMessage> = {},
): StoredMessage {
  return {
    id: msgId++,
    role,
    content,
    timestamp: 1_000,
    status: role === 'assistant' ? 'complete' : null,
    ...over,
  };
}

/** A wire event of session `s1`. */
export function wire(
  type: string,
  seq: number,
  payload: Record<string, unknown> = {},
  sessionId = 's1',
): WireEvent {
  return { type, session_id: sessionId, seq, ts: 10_000 + seq, payload };
}
