/** Builders of protocol records for tests. */
import type { EventPayload, EventType, SessionInfo, StoredMessage, WireEvent } from '@hermes/core/protocol';
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

/** A payload of event `K` whose fields (at any depth) a test may leave out. */
export type PartialPayload<K extends EventType> = DeepPartial<EventPayload<K>>;
type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [P in keyof T]?: DeepPartial<T[P]> }
    : T;

/**
 * A wire event of session `s1`. The payload may leave out fields the test does not need (the
 * reducer under test sees it as the daemon's typed event).
 */
export function wire<K extends EventType>(
  type: K,
  seq: number,
  payload: PartialPayload<K> = {} as PartialPayload<K>,
  sessionId = 's1',
): WireEvent {
  return { type, session_id: sessionId, seq, ts: 10_000 + seq, payload } as WireEvent;
}
