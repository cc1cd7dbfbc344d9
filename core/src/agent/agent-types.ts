/**
 * The types of the agent loop's public surface (agent.ts re-exports them): where it persists
 * messages, what one agent needs, what `reconfigure` swaps, and how a turn ended.
 */
import type { ApprovalGuard } from '../approvals/guard.js';
import type { ApprovalCallback } from '../approvals/types.js';
import type { HermesConfig } from '../config/schema.js';
import type { Secrets } from '../config/secrets.js';
import type { HermesHome } from '../home/home.js';
import type { StoredImage } from '../images/media-store.js';
import type { ChatMessage, ModelClient } from '../model/types.js';
import type { CostSum } from '../model/pricing.js';
import type { AgentEvent, MessageStatus, Usage } from '../protocol/events.js';
import type { SessionProcesses } from '../processes/scope.js';
import type { ModelCallInput } from '../state/model-calls.js';
import type { NewMessage } from '../state/types.js';
import type { DelegateCapability } from '../tools/delegate-types.js';
import type { ClarifyCallback, EditorFiles, ToolDefinition } from '../tools/types.js';
import type { SandboxLane } from '../tools/sandbox/policy.js';
import type { DelegationParent } from './subagent.js';

/** Where the loop persists messages; `SessionDB` satisfies it. */
export interface TranscriptStore {
  /**
   * Appends one message; returns its id. `opts.unqueuePromptId`: the queued prompt this user
   * message starts, removed in the same transaction.
   */
  appendMessage(sessionId: string, msg: NewMessage, opts?: { unqueuePromptId?: string }): number;
  /** Rewrites fields of a stored message (the streaming checkpoint, then its final form). */
  updateMessage(
    id: number,
    patch: Partial<
      Pick<NewMessage, 'content' | 'tool_calls' | 'finish_reason' | 'reasoning' | 'status' | 'outcome'>
    >,
  ): void;
  /** Adds token usage to the session's counters. */
  addUsage(sessionId: string, promptTokens: number, completionTokens: number): void;
  /**
   * Stores one model call's tokens and cost (and adds its tokens to the session's counters, so
   * `addUsage` is not called for it). `call.messageId` may be an id `appendMessage` returned.
   * Absent: only `addUsage` is called.
   */
  recordModelCall?(sessionId: string, call: ModelCallInput): void;
}

/** Everything one agent (one session) needs. */
export interface AgentOptions {
  home: HermesHome;
  config: HermesConfig;
  secrets: Secrets;
  sessionId: string;
  cwd: string;
  store: TranscriptStore;
  model: ModelClient;
  /** The tools offered to the model (the first turn's, when `toolSource` is set). */
  tools: ToolDefinition[];
  /**
   * Resolves the tool set again at the start of every turn, so tools of an MCP server that became
   * ready after the session opened (or was removed by `/mcp reload`) are offered from the next
   * turn on. They travel in each request's `tools` array; the system prompt is not rebuilt
   * (stays byte-stable). Absent: `tools` for the whole session.
   */
  toolSource?: () => ToolDefinition[];
  /** The session's system prompt, stable for the session. */
  systemPrompt: string;
  /** Earlier messages of the session (no system message). */
  history?: ChatMessage[];
  /** Overrides `approvals.mode` (`off` for --yolo). */
  approvalMode?: 'manual' | 'smart' | 'off';
  /** Asks a human to approve a dangerous command; absent → such commands are denied. */
  onApproval?: ApprovalCallback;
  /** Asks a human a question; absent → `clarify` returns an error result. */
  onClarify?: ClarifyCallback;
  /** Receives every event of every turn. Must not throw (exceptions are swallowed). */
  onEvent?: (event: AgentEvent) => void;
  /** Context window of the model in tokens, for `session.usage`. */
  contextWindow?: number;
  /**
   * The session's cost so far from its stored calls (`storedSessionCost`), so `session.usage`
   * sums the whole session; default nothing.
   */
  sessionCost?: CostSum;
  /** Model id sent with every call of this agent (a sub-agent's own model); default the client's. */
  modelId?: string;
  /**
   * Gives tool calls a `ctx.delegate` (for `delegate_task`): `subagentDelegation` of subagent.ts,
   * set by `openAgentSession`. Absent → `delegate_task` reports that it is unavailable.
   */
  delegation?: (parent: DelegationParent) => DelegateCapability;
  /**
   * The approval guard of the session this agent works for, read at every check: a sub-agent's is
   * its parent's, so a stricter setting the session gets while the sub-agent runs (a mode that
   * asks more, an allowlist entry removed) applies to it at once, and its `session` answers are
   * the session's. Absent: the agent's own guard.
   */
  sharedGuard?: () => ApprovalGuard;
  /**
   * The session's sandbox lane (tools/sandbox/policy.ts, from the session's source): tool calls
   * get a `ctx.sandbox` with that lane's policy under each turn's config. Absent: no sandbox
   * (processes run on the bare host), as in tests and one-off contexts.
   */
  sandboxLane?: SandboxLane;
  /**
   * The daemon's background processes narrowed to this session's profile (`ToolContext.processes`);
   * absent outside the daemon: `terminal` with `background: true` and `process` then refuse.
   */
  processes?: SessionProcesses;
  /** An attached editor's text files (`ToolContext.editorFiles`); absent: the disk only. */
  editorFiles?: EditorFiles;
}

/**
 * What `Agent.reconfigure` swaps between turns: the profile's config and secrets as re-read from
 * disk, and a model client built from them. The system prompt is not among them (it stays
 * byte-stable for the session).
 */
export type AgentSettings = Pick<AgentOptions, 'config' | 'secrets' | 'model'>;

/** How a turn ended. */
export interface TurnResult {
  status: MessageStatus;
  /** Text of the last assistant message. */
  text: string;
  /** Token usage summed over the turn's model calls. */
  usage: Usage;
  /** Error text when status is `error`. */
  error?: string;
}

/** Options of one `runTurn`. */
export interface TurnOptions {
  /** The stored queued prompt this turn runs: removed in the transaction that stores the user message. */
  queuedPromptId?: string;
  /**
   * Called at every step boundary of the turn (after a response's tool calls finished, before the
   * next model request): the guidance given meanwhile (`/steer`), in order, taken out of the
   * caller's hands. Each text is stored as a user message with status `guidance` and reaches the
   * model marked as guidance (`guidanceForModel`). Absent: no steering.
   */
  takeGuidance?: () => string[];
  /**
   * Images attached to the prompt, already checked and in the home's media store
   * (images/resolve.ts): stored with the user message and sent as image parts. A model without
   * vision (`model.vision`, model/vision.ts) refuses the turn before anything is stored.
   */
  images?: StoredImage[];
}
