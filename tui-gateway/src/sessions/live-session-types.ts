/**
 * The contracts of a live session (live-session.ts) with the rest of the daemon: the agent it
 * drives and the hooks it hands that agent, the persistence it writes through (the profile's
 * SessionDB), and its construction options (timeouts, replay budget, the registry's callbacks).
 */
import type { CompressionOutcome } from '@hermes/core/agent';
import type { ApprovalCallback } from '@hermes/core/approvals';
import type { StoredImage } from '@hermes/core/images';
import type { ApprovalModeName, AgentEvent, OpenRequest, WireEvent } from '@hermes/core/protocol';
import type { MessageRecord, SessionRecord } from '@hermes/core/state';
import type { ClarifyCallback, EditorFiles } from '@hermes/core/tools';
import type { LiveSession } from './live-session.js';
import type { PromptQueueStore } from './prompt-queue.js';
import type { RingBudget } from './replay-ring.js';

/** The agent as the live session drives it. */
export interface SessionAgent {
  /**
   * `opts.queuedPromptId`: the stored queued prompt, removed with the user message's insert;
   * `opts.images`: the prompt's checked images (stored with the user message).
   */
  runTurn(
    text: string,
    signal: AbortSignal,
    opts?: { queuedPromptId?: string; takeGuidance?: () => string[]; images?: StoredImage[] },
  ): Promise<{ status: string; text: string; error?: string }>;
  /** Replaces the history the model sees by these stored messages (after the transcript was cut). */
  replaceHistory?(records: MessageRecord[]): void;
  /** Compresses the context now (`/compact`); undefined when there is nothing to compress. */
  compact?(focus: string | undefined, signal: AbortSignal): Promise<CompressionOutcome | undefined>;
}

/** Hooks the live session gives the agent it creates. */
export interface AgentHooks {
  onEvent: (e: AgentEvent) => void;
  onApproval: ApprovalCallback;
  onClarify: ClarifyCallback;
  /** The file tools' way to an attached editor's buffers (client-files.ts). */
  editorFiles: EditorFiles;
}

/**
 * Persistence of a live session (the profile's SessionDB): its record, lifecycle state, stored
 * messages and prompt queue.
 */
export interface SessionPersistence extends PromptQueueStore {
  getSession(id: string): SessionRecord | undefined;
  getMessages(id: string, opts: { before?: number; limit?: number }): MessageRecord[];
  setSessionState(id: string, state: string): void;
  moveQueuedPrompts(fromId: string, toId: string): void;
  /**
   * The session's cost from its stored model calls (`session_cost_usd`/`_status` of
   * `session.usage`), for a snapshot before its first turn in this daemon; undefined without any.
   */
  storedCost?(id: string): { session_cost_usd?: number; session_cost_status: CostStatusName } | undefined;
}

/** How a session's cost is known (`session.usage`'s `session_cost_status`). */
export type CostStatusName = 'priced' | 'local' | 'unknown' | 'partial';

/** Construction options. */
export interface LiveSessionOptions {
  id: string;
  profile: string;
  store: SessionPersistence;
  createAgent: (hooks: AgentHooks) => SessionAgent;
  /** Seconds an approval/clarify question waits before the fail-closed answer. */
  approvalTimeoutS: number;
  budget: RingBudget;
  epoch: string;
  /** Called when the session becomes idle with no client (for unloading later). */
  onIdle?: (s: LiveSession) => void;
  /** Called after `id` changed (context compression continued in a child session). */
  onIdChange?: (s: LiveSession, oldId: string) => void;
  /** `SessionInfo.notices`: `[BLOCKED: …]` notes from building the system prompt. */
  notices?: string[];
  /** Where problems of bookkeeping (the stored queue) are reported. */
  log?: (line: string) => void;
  now?: () => number;
  /** The approval mode in effect (`SessionInfo.approval_mode`); absent: not reported. */
  approvalMode?: () => { mode: ApprovalModeName; own: boolean };
  /**
   * Told of every change clients could see: each emitted event (`ev`), and a server request
   * shown (no event). Must be cheap and must not throw (the status feed marks the session dirty).
   */
  onChange?: (s: LiveSession, ev?: WireEvent) => void;
  /** Told after an approval or clarify request was shown to the clients (escalation). Must not throw. */
  onRequest?: (s: LiveSession, open: OpenRequest) => void;
}
