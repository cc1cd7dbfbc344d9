/**
 * Agent events: the typed stream an agent turn emits. The agent loop emits
 * `{type, payload}`; the daemon wraps each as a JSON-RPC notification with `session_id` and `seq`.
 * These schemas are the single source for both.
 */
import { z } from 'zod';
import { ToolBlocked } from './records.js';

/** How a cost is known (see `Usage.cost_status`). */
export const CostStatusSchema = z.enum(['priced', 'local', 'unknown', 'partial']);

/** Token accounting of one model call or a whole turn. */
export const Usage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
  /** Prompt tokens served from the provider's cache, when reported (part of `prompt_tokens`). */
  cached_tokens: z.number().int().nonnegative().optional(),
  /**
   * Prompt tokens written to the provider's cache (Anthropic's cache creation), when reported
   * (part of `prompt_tokens`, as are `cached_tokens`; the rest of it is uncached input).
   */
  cache_write_tokens: z.number().int().nonnegative().optional(),
  /** Completion tokens spent on reasoning, when reported (included in `completion_tokens`). */
  reasoning_tokens: z.number().int().nonnegative().optional(),
  /**
   * What these tokens cost in USD (micro-dollar precision; core/src/model/pricing.ts), when a
   * price is known: absent when `cost_status` is `unknown`, 0 for a local server.
   */
  cost_usd: z.number().nonnegative().optional(),
  /**
   * How the cost is known: `priced` (at the model's price), `local` (a local server: free),
   * `unknown` (no price for the model: no `cost_usd`), `partial` (a sum where some calls had no
   * price: `cost_usd` covers the others). Absent where nothing was priced.
   */
  cost_status: CostStatusSchema.optional(),
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
  /**
   * Why the model stopped, as the provider said (`stop`; `length` when the output limit cut the
   * text off; `tool_calls`; `content_filter`), when it said.
   */
  finish_reason: z.string().optional(),
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
  /** The tool's own running time, ms: time spent waiting for an approval is not counted. */
  duration_ms: z.number().nonnegative(),
  /**
   * The result text the model receives (what a command printed), at most `TOOL_DETAIL_MAX_CHARS`:
   * a longer one keeps its head and tail around a `… N characters left out …` line.
   */
  detail: z.string().optional(),
  /**
   * Set when the call was refused before it ran (the approval guard denied it, or the context
   * forbids it), with the reason (`denied`, `timeout`, `no_frontend`, `interrupted`, `floor`, …).
   */
  blocked: ToolBlocked.optional(),
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
  /**
   * USD the session's model calls cost so far (stored ones included, micro-dollar precision),
   * when any price is known; see `session_cost_status`.
   */
  session_cost_usd: z.number().nonnegative().optional(),
  /** How the session's cost is known (as `Usage.cost_status`). */
  session_cost_status: CostStatusSchema.optional(),
});
export const ErrorPayload = z.object({
  message: z.string(),
  /**
   * Error class, e.g. `rate_limit`, `auth`, `server`; `notice`: not a failure but something the
   * user is told once (e.g. the reasoning effort is not supported by the provider).
   */
  kind: z.string().optional(),
});

/** Why a history was compressed: the threshold was reached, the provider refused, or `/compact`. */
export const CompressionReason = z.enum(['threshold', 'overflow', 'manual']);
export type CompressionReason = z.infer<typeof CompressionReason>;

/**
 * The history was compressed (context compression). The conversation continues in a
 * child session `session_id` whose parent is `parent_session_id` (the old id keeps working for
 * clients of the daemon). Token counts are of the prompt (context used).
 */
export const SessionCompressedPayload = z.object({
  parent_session_id: z.string(),
  session_id: z.string(),
  before_tokens: z.number().int().nonnegative(),
  after_tokens: z.number().int().nonnegative(),
  /** Compressions of this agent so far, this one included. */
  compressions: z.number().int().positive(),
  reason: CompressionReason,
  /** The model's context window in tokens, when known. */
  context_window: z.number().int().positive().optional(),
});

/** A sub-agent of `delegate_task` started. */
export const SubagentStartPayload = z.object({
  /** The sub-agent's id (its child session id when stored). */
  subagent_id: z.string(),
  /** `tool_id` of the parent's `delegate_task` call. */
  parent_tool_id: z.string().optional(),
  /** 0-based index in the call's `tasks`. */
  task_index: z.number().int().nonnegative(),
  goal: z.string(),
  tools: z.array(z.string()),
  model: z.string().optional(),
  max_iterations: z.number().int().positive(),
});
/** Something a running sub-agent did: a tool started or finished, a reply, an error. */
export const SubagentProgressPayload = z.object({
  subagent_id: z.string(),
  parent_tool_id: z.string().optional(),
  kind: z.enum(['tool.start', 'tool.complete', 'message', 'error']),
  text: z.string(),
  /** Tool name for `tool.*`. */
  tool: z.string().optional(),
  /** Outcome for `tool.complete`. */
  ok: z.boolean().optional(),
});
/** A sub-agent finished; `summary` is its final answer (what the parent's model receives). */
export const SubagentCompletePayload = z.object({
  subagent_id: z.string(),
  parent_tool_id: z.string().optional(),
  task_index: z.number().int().nonnegative(),
  /** `complete`, `interrupted`, `error`, `max_turns`. */
  status: z.string(),
  summary: z.string(),
  duration_ms: z.number().nonnegative(),
  usage: Usage.optional(),
  error: z.string().optional(),
});

/**
 * The smart approval check (`approvals.mode: smart`) judged a flagged command of tool `tool_id`:
 * `approve` → it runs without asking; `deny` → the user is asked, with only `once`/`deny`;
 * `escalate` → the user is asked as in manual mode. `failed` marks a check that gave no usable
 * verdict (error, timeout, malformed answer), which always escalates. `reason` is one line.
 */
export const ApprovalSmartPayload = z.object({
  tool_id: z.string(),
  verdict: z.enum(['approve', 'deny', 'escalate']),
  reason: z.string(),
  /** Model that answered, when one did. */
  model: z.string().optional(),
  failed: z.boolean().optional(),
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
  'session.compressed': SessionCompressedPayload,
  'subagent.start': SubagentStartPayload,
  'subagent.progress': SubagentProgressPayload,
  'subagent.complete': SubagentCompletePayload,
  'approval.smart': ApprovalSmartPayload,
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
