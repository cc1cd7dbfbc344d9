/**
 * What clients see of a session: its `SessionInfo` (the stored record joined with the live
 * state, or the record alone when not live), and what a client attaching gets to catch up — the
 * events it missed from the replay ring, or a snapshot (the latest window of the stored
 * transcript, the in-flight turn, the queue, the open requests, the last usage or else the stored
 * cost).
 */
import type {
  ApprovalModeName,
  EventPayload,
  Inflight,
  MethodResult,
  OpenRequest,
  QueuedPrompt,
  SessionInfo,
} from '@hermes/core/protocol';
import type { SessionRecord } from '@hermes/core/state';
import type { SessionPersistence } from './live-session-types.js';
import type { ReplayRing } from './replay-ring.js';
import { toStoredMessage } from './stored-message.js';

/** The usage a snapshot carries: the last `session.usage` in this daemon, or the stored cost. */
export interface SnapshotUsage {
  total_tokens: number;
  context_tokens: number | null;
  context_window: number | null;
  session_cost_usd?: number;
  session_cost_status?: EventPayload<'session.usage'>['session_cost_status'];
}

/** The part of a `session.usage` payload a snapshot keeps. */
export function snapshotUsage(p: EventPayload<'session.usage'>): SnapshotUsage {
  return {
    total_tokens: p.usage.total_tokens,
    context_tokens: p.context_tokens ?? null,
    context_window: p.context_window ?? null,
    ...(p.session_cost_usd !== undefined ? { session_cost_usd: p.session_cost_usd } : {}),
    ...(p.session_cost_status ? { session_cost_status: p.session_cost_status } : {}),
  };
}

/** The live state `sessionInfo` joins with the stored record. */
export interface LiveState {
  id: string;
  profile: string;
  busy: boolean;
  /** Attached clients. */
  clients: number;
  /** `[BLOCKED: …]` notes from building the system prompt. */
  notices?: string[] | undefined;
  /** The approval mode in effect and whether it is the session's own; absent: not reported. */
  approval?: { mode: ApprovalModeName; own: boolean } | undefined;
}

/**
 * Session metadata for clients.
 * @param record the stored record; undefined when it cannot be read (defaults are shown).
 */
export function sessionInfo(record: SessionRecord | undefined, live: LiveState): SessionInfo {
  const r = record;
  return {
    id: live.id,
    profile: live.profile,
    title: r?.title ?? null,
    source: r?.source ?? 'unknown',
    model: r?.model ?? null,
    cwd: r?.cwd ?? null,
    started_at: r?.started_at ?? 0,
    ended_at: r?.ended_at ?? null,
    message_count: r?.message_count ?? 0,
    state: r?.state ?? 'active',
    parent_session_id: r?.parent_session_id ?? null,
    live: true,
    busy: live.busy,
    clients: live.clients,
    ...(live.notices?.length ? { notices: live.notices } : {}),
    ...(live.approval ? { approval_mode: live.approval.mode, approval_mode_own: live.approval.own } : {}),
  };
}

/** `SessionInfo` of a stored session of `profile` that is not live (no client, not busy). */
export function storedSessionInfo(profile: string, r: SessionRecord): SessionInfo {
  return {
    id: r.id,
    profile,
    title: r.title,
    source: r.source,
    model: r.model,
    cwd: r.cwd,
    started_at: r.started_at,
    ended_at: r.ended_at,
    message_count: r.message_count,
    state: r.state,
    parent_session_id: r.parent_session_id,
    live: false,
    busy: false,
    clients: 0,
  };
}

/** The session's parts a catch-up reads (taken when the client attaches). */
export interface CatchUpSource {
  id: string;
  /** The session's latest event seq. */
  seq: number;
  /** The daemon's epoch (a seq from another epoch cannot be replayed). */
  epoch: string;
  store: SessionPersistence;
  ring: ReplayRing;
  info(): SessionInfo;
  inflight: Inflight | null;
  queued(): QueuedPrompt[];
  openRequests(): OpenRequest[];
  lastUsage: SnapshotUsage | undefined;
}

/**
 * What an attaching client needs to catch up: with `sinceSeq`, the missed events when the ring
 * still holds them all, else (or without it) a snapshot, marked `truncated` when events were
 * asked for but are gone (or `sinceSeq` is from another epoch).
 * @param historyLimit stored messages in a snapshot (the latest ones; `has_more` when there are more).
 */
export function catchUp(
  src: CatchUpSource,
  sinceSeq: number | undefined,
  historyLimit: number,
): MethodResult<'session.attach'> {
  if (sinceSeq !== undefined && sinceSeq <= src.seq) {
    const r = src.ring.since(sinceSeq, src.seq);
    if (!r.truncated) {
      return {
        kind: 'replay',
        session: src.info(),
        events: r.events,
        open_requests: src.openRequests(),
        seq: src.seq,
        epoch: src.epoch,
      };
    }
    return { ...snapshot(src, historyLimit), truncated: true };
  }
  const result = snapshot(src, historyLimit);
  if (sinceSeq !== undefined) result.truncated = true; // a seq from the future: another epoch
  return result;
}

function snapshot(
  src: CatchUpSource,
  historyLimit: number,
): Extract<MethodResult<'session.attach'>, { kind: 'snapshot' }> {
  const records = src.store
    .getMessages(src.id, { limit: historyLimit + 1 })
    .filter((m) => m.role !== 'system');
  const hasMore = records.length > historyLimit;
  const window = hasMore ? records.slice(records.length - historyLimit) : records;
  return {
    kind: 'snapshot',
    session: src.info(),
    messages: window.map(toStoredMessage),
    has_more: hasMore,
    inflight: src.inflight ? structuredClone(src.inflight) : null,
    queued: src.queued(),
    open_requests: src.openRequests(),
    seq: src.seq,
    epoch: src.epoch,
    ...((): { usage?: SnapshotUsage } => {
      if (src.lastUsage) return { usage: { ...src.lastUsage } };
      // before its first turn here: the stored cost, so a client shows it at once
      const cost = src.store.storedCost?.(src.id);
      const record = cost ? src.store.getSession(src.id) : undefined;
      if (!cost || !record) return {};
      const total = record.prompt_tokens + record.completion_tokens;
      return { usage: { total_tokens: total, context_tokens: null, context_window: null, ...cost } };
    })(),
  };
}
