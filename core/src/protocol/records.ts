/** Records carried by several methods: sessions, stored messages, open requests, snapshots. */
import { z } from 'zod';
import { REQUEST_KINDS } from './approval-choices.js';

/**
 * An approval mode: `manual` asks a person for every flagged command, `smart` lets a model judge
 * first and asks when it is unsure, `off` runs flagged commands without asking (the hard floor
 * still refuses the worst ones in every mode).
 */
export const ApprovalModeSchema = z.enum(['manual', 'smart', 'off']);
export type ApprovalModeName = z.infer<typeof ApprovalModeSchema>;

/** A session as clients see it. Times are epoch ms. */
export const SessionInfo = z.object({
  id: z.string(),
  profile: z.string(),
  title: z.string().nullable(),
  source: z.string(),
  model: z.string().nullable(),
  cwd: z.string().nullable(),
  started_at: z.number(),
  ended_at: z.number().nullable(),
  message_count: z.number().int().nonnegative(),
  /** Lifecycle state: `active`, `ended`, `interrupted`, `resume_pending` … */
  state: z.string(),
  /** True while the daemon holds it live (loaded, with fan-out and replay ring). */
  live: z.boolean().optional(),
  /** True while a turn runs. */
  busy: z.boolean().optional(),
  /** Number of attached clients. */
  clients: z.number().int().nonnegative().optional(),
  /** Start of the first user message, for pickers. */
  preview: z.string().optional(),
  parent_session_id: z.string().nullable().optional(),
  /**
   * Warnings about how the session was set up, shown by clients when they open it: a project
   * context file or memory entry the content scanner refused, as `[BLOCKED: AGENTS.md:
   * instruction_override]` (the same note stands in the system prompt instead of the text).
   */
  notices: z.array(z.string()).optional(),
  /** The approval mode the session's checks use: the profile's `approvals.mode`, or its own. */
  approval_mode: ApprovalModeSchema.optional(),
  /** True when the session set its own approval mode (`session.approvals.set`). */
  approval_mode_own: z.boolean().optional(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

/** A tool call refused before it ran: `tool.complete.blocked`, an outcome's `blocked`. */
export const ToolBlocked = z.object({ reason: z.string() });

/**
 * What a live client showed for a message, recorded when it was stored, so a client reading the
 * history later shows the same: a tool call's outcome (`ok`, `summary`, `duration_ms`, and
 * `blocked` when it was refused before it ran, as in `tool.complete`) and the approvals answered
 * while it ran (`choice` and `by`, as in `request.resolved`; a verdict of the smart check has
 * `by: "smart"`, `choice` `once` (approved without asking) or `deny` (judged dangerous, the user
 * was asked next) and the check's one-line `reason`, as in `approval.smart`); a failed reply's
 * `error` (as in the `error` event).
 */
export const MessageOutcome = z.object({
  ok: z.boolean().optional(),
  summary: z.string().optional(),
  duration_ms: z.number().optional(),
  /** As `tool.complete.blocked`: the call was refused before it ran. */
  blocked: ToolBlocked.optional(),
  approvals: z
    .array(z.object({ choice: z.string(), by: z.string(), reason: z.string().optional() }))
    .optional(),
  error: z.string().optional(),
});
export type MessageOutcome = z.infer<typeof MessageOutcome>;

/** A stored message (system messages are not sent to clients). */
export const StoredMessage = z.object({
  id: z.number().int(),
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string().nullable(),
  /** OpenAI tool calls of an assistant message. */
  tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
  tool_call_id: z.string().nullable().optional(),
  tool_name: z.string().nullable().optional(),
  timestamp: z.number(),
  status: z.string().nullable().optional(),
  /** What live clients showed for it (tool outcome, approvals, error); absent when unknown. */
  outcome: MessageOutcome.optional(),
});
export type StoredMessage = z.infer<typeof StoredMessage>;

/** A running tool in the in-flight part of a snapshot. */
export const RunningTool = z.object({
  tool_id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  summary: z.string().optional(),
  started_at: z.number(),
});

/** The part of the current turn not yet stored as a message. */
export const Inflight = z.object({
  /** Assistant text streamed so far for the message being generated. */
  text: z.string(),
  reasoning: z.string(),
  tools: z.array(RunningTool),
  /** Tools of this turn already finished (`tool.complete` seen). */
  completed_tools: z
    .array(
      z.object({
        tool_id: z.string(),
        name: z.string(),
        ok: z.boolean(),
        summary: z.string(),
        duration_ms: z.number(),
        /** As `tool.complete.blocked`. */
        blocked: ToolBlocked.optional(),
      }),
    )
    .optional(),
  /** The user prompt this turn runs on. */
  prompt: z.string(),
  started_at: z.number(),
  status: z.string().optional(),
});
export type Inflight = z.infer<typeof Inflight>;

/** A prompt waiting for the running turn to end. */
export const QueuedPrompt = z.object({
  prompt_id: z.string(),
  text: z.string(),
  by: z.string().optional(),
  /**
   * Opaque id of the inbound message this prompt answers (a chat platform's message id, assigned
   * when the message was accepted); echoed in `turn.start` and `turn.end`.
   */
  origin: z.string().optional(),
  /**
   * Kept from a daemon that stopped or crashed before running it: it does not run by itself
   * (`/queue run` runs the held prompts, `/queue drop` discards the queue).
   */
  held: z.boolean().optional(),
});
export type QueuedPrompt = z.infer<typeof QueuedPrompt>;

/** A server request still waiting for an answer (shown to a client that attaches later). */
export const OpenRequest = z.object({
  request_id: z.string(),
  kind: z.enum(REQUEST_KINDS),
  /** The params of the `approval.request` / `clarify.request`. */
  params: z.record(z.string(), z.unknown()),
  created_at: z.number(),
  /** Epoch ms when it is denied for lack of an answer. */
  expires_at: z.number(),
});
export type OpenRequest = z.infer<typeof OpenRequest>;
