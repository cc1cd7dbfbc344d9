/**
 * Agent events: the typed stream an agent turn emits (DESIGN §5 "Events"). The agent loop emits
 * `{type, payload}`; the daemon wraps each as a JSON-RPC notification with `session_id` and `seq`.
 * These schemas are the single source for both.
 */
import { z } from 'zod';

/** Token accounting of one model call or a whole turn. */
export const Usage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
  /** Prompt tokens served from the provider's cache, when reported. */
  cached_tokens: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof Usage>;

/**
 * How an assistant message ended; `streaming` marks a stored partial reply still being written
 * (after a crash it becomes `interrupted`).
 */
export const MessageStatus = z.enum(['complete', 'interrupted', 'error', 'max_turns', 'streaming']);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const MessageStartPayload = z.object({ role: z.literal('assistant') });
export const MessageDeltaPayload = z.object({ text: z.string() });
export const ReasoningDeltaPayload = z.object({ text: z.string() });
export const MessageCompletePayload = z.object({
  text: z.string(),
  status: MessageStatus,
  usage: Usage,
  /** Error text when status is `error`. */
  error: z.string().optional(),
});
export const ToolStartPayload = z.object({
  tool_id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  /** Short human summary of the arguments, e.g. the command line. */
  summary: z.string().optional(),
});
export const ToolProgressPayload = z.object({ tool_id: z.string(), text: z.string() });
export const ToolCompletePayload = z.object({
  tool_id: z.string(),
  ok: z.boolean(),
  summary: z.string(),
  duration_ms: z.number().nonnegative(),
});
export const StatusUpdatePayload = z.object({
  state: z.enum(['thinking', 'tools', 'retrying', 'compressing', 'waiting_approval', 'idle']),
  text: z.string().optional(),
});
export const SessionUsagePayload = z.object({
  usage: Usage,
  /** Prompt tokens of the latest model call: how full the context is. */
  context_tokens: z.number().int().nonnegative().optional(),
  /** The model's context window in tokens, when known. */
  context_window: z.number().int().positive().optional(),
});
export const ErrorPayload = z.object({
  message: z.string(),
  /** Error class, e.g. `rate_limit`, `auth`, `server`. */
  kind: z.string().optional(),
});

/** Event type → payload schema, for the events an agent turn emits. */
export const AgentEventPayloads = {
  'message.start': MessageStartPayload,
  'message.delta': MessageDeltaPayload,
  'reasoning.delta': ReasoningDeltaPayload,
  'message.complete': MessageCompletePayload,
  'tool.start': ToolStartPayload,
  'tool.progress': ToolProgressPayload,
  'tool.complete': ToolCompletePayload,
  'status.update': StatusUpdatePayload,
  'session.usage': SessionUsagePayload,
  error: ErrorPayload,
} as const;

/** Names of the events an agent turn emits. */
export type AgentEventType = keyof typeof AgentEventPayloads;

/** One agent event: a discriminated union over `type`. */
export type AgentEvent = {
  [K in AgentEventType]: { type: K; payload: z.infer<(typeof AgentEventPayloads)[K]> };
}[AgentEventType];

/** Payload type of one event name. */
export type AgentEventPayload<K extends AgentEventType> = z.infer<(typeof AgentEventPayloads)[K]>;
