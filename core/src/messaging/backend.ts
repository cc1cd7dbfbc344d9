/**
 * What the message pipeline needs from whoever runs agents. The daemon implements it with its
 * live sessions (tui-gateway/src/platforms/live-backend.ts: an attached TUI sees the turn and can
 * answer its approvals); `InProcessBackend` (local-backend.ts) runs agents directly, for tests
 * and tools without a daemon.
 */
import type { ReasoningEffort } from '../model/reasoning.js';
import type { ImageAttachmentInput } from '../protocol/attachments.js';
import type {
  ApprovalChoiceName,
  ApprovalPrompt,
  ApprovalReply,
  ClarifyPrompt,
  SeedMessage,
  TurnEvent,
} from './adapter.js';
import type { MessageSource } from './source.js';

/** A new stored session for a platform conversation. */
export interface NewPlatformSession {
  /** The session key it serves (written to its route record). */
  key: string;
  source: MessageSource;
  /** The platform context block appended to the system prompt (context-prompt.ts). */
  systemPromptExtra: string;
  /** Title shown in session lists, e.g. `irc #hermes alice`. */
  title: string;
  /** Working directory of the agent. */
  cwd: string;
  /** Earlier turns stored after the system prompt, before the first prompt (oldest first). */
  history?: readonly SeedMessage[];
}

/** Receives one turn's events and questions. */
export interface TurnSink {
  /** Every agent event of the turn (`message.delta`, `tool.start`, `request.resolved` …). */
  onEvent(event: TurnEvent): void;
  /**
   * Asks the chat to approve a command; resolves with the choice, or with `{choice: 'deny',
   * reason: 'no_approver'}` when no one there could approve (rejects/aborts mean deny).
   */
  onApproval(prompt: ApprovalPrompt, signal: AbortSignal): Promise<ApprovalChoiceName | ApprovalReply>;
  /** Asks the chat a question; resolves with the answer. */
  onClarify(prompt: ClarifyPrompt, signal: AbortSignal): Promise<string>;
  /**
   * The turn starts now (its prompt left the queue), before the agent stores the user message.
   * @param promptId the session's id of the prompt.
   */
  onStart?(promptId: string): void;
}

/** Options of one turn. */
export interface TurnOptions {
  /**
   * Id of the inbound message the prompt answers (`in-…`). It travels with the prompt through
   * the session's queue to `turn.start` / `turn.end`, which is how the turn is matched to it.
   */
  origin?: string;
  /** Images of the message (`InboundMessage.images`), resolved and checked by the backend. */
  images?: ImageAttachmentInput[];
}

/** A prompt of this platform taken back from a session's queue (see `takeQueued`). */
export interface TakenPrompt {
  origin: string;
  text: string;
}

/** How a turn ended. */
export interface TurnOutcome {
  /**
   * `complete`, `interrupted`, `error`, `max_turns`; or, for a prompt that never ran here,
   * `held` (kept for after the restart by a shutdown) or `dropped` (discarded from the queue).
   */
  status: string;
  /** The final assistant text (of the last model call). */
  text: string;
  error?: string;
}

/** What `/status` and the footer show about a session. */
export interface SessionStatus {
  id: string;
  title: string | null;
  model: string | null;
  cwd: string | null;
  busy: boolean;
  /** Clients attached (TUIs watching), when known. */
  clients?: number;
  /** Prompt tokens of the latest model call. */
  contextTokens?: number;
  /** The model's context window. */
  contextWindow?: number;
}

/** The agent side of the pipeline. */
export interface AgentBackend {
  /** Creates the stored session (system prompt with `systemPromptExtra`, route record); returns its id. */
  createSession(init: NewPlatformSession): string;
  /**
   * Runs `text` as one user turn of the session (queued behind a running one) and resolves when
   * it ends. Rejects when the session cannot be opened (locked by another process, deleted).
   */
  runTurn(sessionId: string, text: string, sink: TurnSink, opts?: TurnOptions): Promise<TurnOutcome>;
  /**
   * Takes this platform's prompts whose origin is in `origins` out of the session's queue (held
   * after a restart, or waiting), so the restart recovery can submit them again in order.
   * Undefined for backends without a stored queue.
   */
  takeQueued?(sessionId: string, origins: ReadonlySet<string>): TakenPrompt[];
  /** Interrupts the running turn; false when none runs. */
  interrupt(sessionId: string): boolean;
  /** True while a turn of the session runs. */
  isBusy(sessionId: string): boolean;
  /** Status of a session, undefined when unknown. */
  status(sessionId: string): SessionStatus | undefined;
  /**
   * The session's reasoning effort (`/reasoning`), after setting it when `set` is given (`null`:
   * back to the profile's `model.reasoning_effort`); applies from its next turn. `own`: set for
   * this session. Undefined for backends that cannot change it.
   */
  reasoningEffort?(
    sessionId: string,
    set?: ReasoningEffort | null,
  ): { effort: ReasoningEffort | undefined; own: boolean };
}
