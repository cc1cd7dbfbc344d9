/** Records of the SessionDB (issue 2 "SessionDB", seed 000 §5). */
import type { MessageStatus } from '../protocol/events.js';

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
  /** `complete`, `interrupted`, `error`, `max_turns`; null for user/tool messages. */
  status: MessageStatus | null;
}

/** Fields a caller supplies when appending a message. */
export type NewMessage = Omit<
  MessageRecord,
  | 'id'
  | 'session_id'
  | 'timestamp'
  | 'tool_calls'
  | 'tool_call_id'
  | 'tool_name'
  | 'finish_reason'
  | 'reasoning'
  | 'status'
> &
  Partial<
    Pick<
      MessageRecord,
      'timestamp' | 'tool_calls' | 'tool_call_id' | 'tool_name' | 'finish_reason' | 'reasoning' | 'status'
    >
  >;

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
