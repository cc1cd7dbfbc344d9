/** The TUI's view of one session: transcript items, the live part of a turn, and status. */
import type { AttachmentInfo, QueuedPrompt, SessionInfo } from '@hermes/core/protocol';
import type { ConnectionState } from '@hermes/client';
import type { OrderedEnd } from '../markdown/continuation.js';
import type { ReplyScan } from './reply-parts.js';

/** A user prompt as shown in the transcript. */
export interface UserItem {
  kind: 'user';
  text: string;
  /** Who submitted it (`client:connection`), when known. */
  by?: string;
  /** Guidance given while a turn ran (`/steer`), not a prompt of its own. */
  guidance?: boolean;
  /** What was attached (images …), shown as chips. */
  attachments?: AttachmentInfo[];
}

/**
 * A finished assistant message, or a part of one: a reply's finished blocks are printed while it
 * still streams (state/reply-parts.ts), and its last item then holds the rest.
 */
export interface AssistantItem {
  kind: 'assistant';
  text: string;
  /** `complete`, `interrupted`, `error`, `max_turns`. */
  status: string;
  /** A finished block printed while the reply streamed (not the whole reply; its end follows). */
  part?: true;
  /** On the last item of a reply printed in parts: the reply's whole text (as stored). */
  whole?: string;
}

/** A finished tool call. */
export interface ToolItem {
  kind: 'tool';
  toolId: string;
  name: string;
  args: Record<string, unknown>;
  /** Short summary of the result (or of the arguments). */
  summary: string;
  /** Outcome; null when unknown (rebuilt from stored history). */
  ok: boolean | null;
  durationMs: number | null;
  /** The result text (what the tool printed), capped; absent when the daemon did not send it. */
  detail?: string;
  /** Why the approval guard refused to run it (`denied`, `timeout` …): it never ran. */
  blocked?: string;
}

/** A line the TUI adds itself: resolved approvals, errors, command output. */
export interface NoticeItem {
  kind: 'notice';
  text: string;
  tone: 'info' | 'warn' | 'error';
}

/** A reply streaming in. */
export interface StreamingReply {
  /** The text so far (all of it, printed parts included). */
  text: string;
  /** Reasoning text so far. */
  reasoning: string;
  /** How far `text` was scanned for finished blocks; `scan.cut` chars are printed as parts. */
  scan: ReplyScan;
  /**
   * After the model call restarted mid-reply: the text the failed attempt printed as parts. The
   * new attempt's `text` is neither printed nor drawn while it repeats it.
   */
  skip?: string;
  /** Where the ordered list the printed parts ended with stops (the next item's number), if they did. */
  list?: OrderedEnd | null;
}

/** An item before it is placed in the transcript. */
export type ItemDraft = UserItem | AssistantItem | ToolItem | NoticeItem;

/**
 * A transcript item; `n` is its ordinal, unique and increasing for the TUI's life. `older` marks
 * messages printed by `/history` (older than the attach snapshot, printed after it).
 */
export type TranscriptItem = ItemDraft & { n: number; older?: boolean };

/** A tool that is still running. */
export interface RunningToolView {
  toolId: string;
  name: string;
  args: Record<string, unknown>;
  summary?: string;
  startedAt: number;
  /** Latest progress line. */
  progress?: string;
  /** An approval request for it is open: it waits for an answer and has not started. */
  awaitingApproval?: boolean;
}

/** Params of an approval request as the card needs them. */
export interface ApprovalParams {
  command: string;
  description: string;
  choices: string[];
  /** What `session` / `always` would store: the allowlist entries, one per rule hit. */
  allows?: string[];
  expires_at?: number;
  /** A file edit waiting to be written (`approvals.edits: ask`): the card shows its diff. */
  edit?: { path: string; diff: string };
}

/** Params of a clarify request. */
export interface ClarifyParams {
  question: string;
  choices?: string[];
  expires_at?: number;
}

/** An approval or question waiting for an answer. */
export type OpenRequestView =
  | { requestId: string; kind: 'approval'; params: ApprovalParams }
  | { requestId: string; kind: 'clarify'; params: ClarifyParams };

/** Token usage as the status bar shows it. */
export interface UsageView {
  totalTokens: number;
  contextTokens: number | null;
  contextWindow: number | null;
  /** The last turn's cost text (`$0.0123`, `local`, `unknown`, `… (partial)`), when priced. */
  turnCost?: string;
  /** The session's cost text so far, when priced. */
  sessionCost?: string;
}

/** Everything the screen shows about the attached session. */
export interface SessionState {
  sessionId: string | null;
  session: SessionInfo | null;
  /** Daemon epoch of the last attach. */
  epoch: string | null;
  /** Last seq applied; events at or below it are duplicates. */
  lastSeq: number;
  /** Finished items, oldest first: a bounded window of the transcript. */
  items: TranscriptItem[];
  /** Ordinal the next item gets. */
  nextN: number;
  /** True when older messages exist than the oldest one loaded. */
  hasMore: boolean;
  /** Id of the oldest stored message loaded (attach snapshot or `/history`); null when none. */
  oldestMessageId: number | null;
  /** Assistant text (and reasoning) streaming in, not yet finished. */
  streaming: StreamingReply | null;
  tools: RunningToolView[];
  queued: QueuedPrompt[];
  requests: OpenRequestView[];
  /** Ids of requests shown recently (to word `request.resolved`). */
  seenRequests: string[];
  busy: boolean;
  /**
   * `thinking`, `tools`, `waiting_approval` … from `status.update`; `responding` while reply text
   * streams in (set here from `message.delta`, not sent by the daemon).
   */
  activity: string | null;
  activityText: string | null;
  /** When the running turn began, epoch ms. */
  turnStartedAt: number | null;
  usage: UsageView | null;
  connection: ConnectionState;
  /**
   * The daemon's life as the TUI sees it (client/daemon-keeper.ts): `starting` a new one for a
   * vanished one, `stopped` deliberately (the user's key starts it again), a start that `failed`.
   */
  daemon: 'ok' | 'starting' | 'stopped' | 'failed';
  /** This client's connection id (to tell "answered here" from "answered elsewhere"). */
  connectionId: string | null;
  /**
   * This client's instance id, sent at `initialize` and kept across reconnects and `/profile`
   * round trips: its answers are `by: "client:<instanceId>"` (see `AnswerSelf`).
   */
  instanceId: string | null;
  profile: string | null;
  /** Text of the last finished assistant reply (for /copy), kept even after /clear. */
  lastReply: string | null;
  /** The profile's default model (shown when the session names none). */
  defaultModel: string | null;
  /** The first-run model setup card is open (the profile has no usable model). */
  setup: { profile: string } | null;
  /** Running background processes of this profile (`process.list`, then `process.changed`). */
  backgroundRunning: number;
}
