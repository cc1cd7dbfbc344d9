/** Records of the SessionDB. */
import type { MessageStatus } from '../protocol/events.js';

/** `status` of a user message that steered a running turn (stored in order, shown as guidance). */
export const GUIDANCE_STATUS = 'guidance';

/** Where a session came from. */
export type SessionSource = 'cli' | 'tui' | 'cron' | 'api' | string;

/** One row of `sessions`. Times are epoch milliseconds. */
export interface SessionRecord {
  /** `YYYYMMDD_HHMMSS_<6 hex>` */
  id: string;
  source: SessionSource;
  title: string | null;
  model: string | null;
  cwd: string | null;
  started_at: number;
  ended_at: number | null;
  end_reason: string | null;
  parent_session_id: string | null;
  message_count: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** `active`, `ended`, `interrupted`, `resume_pending` … (daemon lifecycle). */
  state: string;
  /** Epoch ms of the last write to the session (message appended, renamed, ended …). */
  updated_at: number;
}

/**
 * One row of `queued_prompts`: a prompt submitted to a live session while a turn ran, stored
 * until its turn starts so a daemon crash does not lose it. Times are epoch ms.
 */
export interface QueuedPromptRecord {
  /** `p-…`, unique per database. */
  prompt_id: string;
  session_id: string;
  text: string;
  /** Who submitted it (connection id or client name), or null. */
  queued_by: string | null;
  queued_at: number;
  /** Id of the inbound message the prompt answers (a platform's), or null (schema v4). */
  origin: string | null;
}

/** One row of `messages`. */
export interface MessageRecord {
  id: number;
  session_id: string;
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  /** JSON text of the OpenAI `tool_calls` array, for assistant messages that call tools. */
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  /** Epoch ms. */
  timestamp: number;
  finish_reason: string | null;
  reasoning: string | null;
  /**
   * `complete`, `interrupted`, `error`, `max_turns` (assistant); `guidance` for a user message
   * given while a turn ran (`/steer`, `GUIDANCE_STATUS`); null for other user and tool messages.
   */
  status: MessageStatus | typeof GUIDANCE_STATUS | null;
  /**
   * JSON of what frontends showed when the message was stored (`MessageOutcome` of the protocol):
   * a tool call's outcome, summary, duration and approvals; a failed reply's error. Null if none.
   */
  outcome: string | null;
}

/** Fields of a stored message that a new one may leave out (filled by the store or absent). */
type OptionalMessageField =
  | 'timestamp'
  | 'tool_calls'
  | 'tool_call_id'
  | 'tool_name'
  | 'finish_reason'
  | 'reasoning'
  | 'status'
  | 'outcome';

/** Fields a caller supplies when appending a message. */
export type NewMessage = Omit<MessageRecord, 'id' | 'session_id' | OptionalMessageField> &
  Partial<Pick<MessageRecord, OptionalMessageField>>;

/** Fields of a stored message that `SessionDB.updateMessage` may change (finishing a partial reply). */
export type MessagePatch = Partial<
  Pick<MessageRecord, 'content' | 'tool_calls' | 'finish_reason' | 'reasoning' | 'status' | 'outcome'>
>;

/** Arguments of `SessionDB.createSession`. */
export interface CreateSessionOptions {
  /** Where the session came from (`cli`, `tui`, `cron`, `api`, a platform name). Required. */
  source: SessionSource;
  title?: string | null;
  model?: string | null;
  cwd?: string | null;
  /** Session this one continues (e.g. after context compression). Not checked for existence. */
  parentSessionId?: string | null;
  /** Explicit id; default a new `YYYYMMDD_HHMMSS_<6 hex>` (see `session-id.ts`). */
  id?: string;
  /** Epoch ms; default now. */
  startedAt?: number;
}

/** Arguments of `SessionDB.listSessions`. */
export interface ListSessionsOptions {
  /** Maximum rows (default 50; at most 10,000). */
  limit?: number;
  /** Rows to skip, for paging (default 0). */
  offset?: number;
  /** Only sessions with this source. */
  source?: string;
  /** Case-insensitive substring of the title, or a prefix of the id. */
  query?: string;
}

/** Arguments of `SessionDB.getMessages`: a window of a transcript, always returned oldest → newest. */
export interface GetMessagesOptions {
  /** Only messages with an id below this one (the window ends just before it). */
  before?: number;
  /** Only messages with an id above this one (the window starts just after it). */
  after?: number;
  /**
   * Maximum messages. With `after` the window is the oldest `limit` messages after it; otherwise
   * the newest `limit` messages (before `before`, if given). Default: no limit.
   */
  limit?: number;
}

/** Arguments of `SessionDB.search`. */
export interface SearchOptions {
  /** Maximum hits (default 20; at most 500). */
  limit?: number;
  /** Only messages of this session. */
  sessionId?: string;
  /** Only messages with this role. */
  role?: MessageRecord['role'];
}

/** A whole session as `SessionDB.exportSession` returns it (and `hermes sessions show --json` prints). */
export interface SessionExport {
  session: SessionRecord;
  /** Every message, oldest first. */
  messages: MessageRecord[];
}

/** One full-text search hit. */
export interface SearchHit {
  session_id: string;
  message_id: number;
  role: string;
  /** Excerpt with the matches wrapped in `[` `]`. */
  snippet: string;
  timestamp: number;
  session_title: string | null;
}
