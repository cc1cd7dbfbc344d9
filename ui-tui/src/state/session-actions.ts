/**
 * What can happen to a session view (`SessionAction`, applied by session-reducer.ts) and the view
 * before anything is attached.
 */
import type { StoredMessage, WireEvent } from '@hermes/core/protocol';
import type { AttachResult, ConnectionState } from '@hermes/client';
import type { OpenRequestView, SessionState } from './types.js';

/** What can happen to the session view. */
export type SessionAction =
  | { type: 'connection'; state: ConnectionState }
  /** The daemon's life (client/daemon-keeper.ts); a daemon known gone ends the turn on screen. */
  | { type: 'daemon'; status: SessionState['daemon'] }
  | { type: 'connected'; connectionId: string; profile: string; instanceId?: string }
  | { type: 'attach'; result: AttachResult; now: number }
  | { type: 'event'; event: WireEvent; now: number }
  | { type: 'request'; request: OpenRequestView }
  | { type: 'request.answered'; requestId: string }
  /** This client's answer came too late (-32003): another client, the timeout or an interrupt won. */
  | { type: 'request.settled'; requestId: string; kind: 'approval' | 'clarify'; choice: unknown; by: string }
  | { type: 'notice'; text: string; tone?: 'info' | 'warn' | 'error' }
  | { type: 'clear' }
  | { type: 'model'; model: string | null }
  | { type: 'setup'; setup: { profile: string } | null }
  | { type: 'older'; messages: StoredMessage[]; hasMore: boolean }
  /** `/history` prints stored messages older than `before` next (set by `/clear`). */
  | { type: 'historyFrom'; before: number }
  | { type: 'detached' }
  | { type: 'background'; running: number };

/** The state before anything is attached. */
export function initialSessionState(): SessionState {
  return {
    sessionId: null,
    session: null,
    epoch: null,
    lastSeq: -1,
    items: [],
    nextN: 0,
    hasMore: false,
    oldestMessageId: null,
    streaming: null,
    tools: [],
    queued: [],
    requests: [],
    seenRequests: [],
    busy: false,
    activity: null,
    activityText: null,
    turnStartedAt: null,
    usage: null,
    connection: 'disconnected',
    daemon: 'ok',
    connectionId: null,
    instanceId: null,
    profile: null,
    lastReply: null,
    defaultModel: null,
    setup: null,
    backgroundRunning: 0,
  };
}
