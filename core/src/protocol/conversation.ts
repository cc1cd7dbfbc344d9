/**
 * Conversation control on the wire: going back in a session (`session.undo`, `session.retry`,
 * `session.rewind`), branching it (`session.fork`), steering a running turn (`session.steer`),
 * and the events that keep every attached client in step (`session.rewound`, `prompt.steered`).
 * All of them run in the daemon; a client only asks and redraws.
 */
import { z } from 'zod';
import { SessionInfo } from './records.js';

const SessionId = z.string().min(1);

/** `session.undo` / `session.retry`: the session, nothing else (the daemon finds the last prompt). */
export const SessionUndoParams = z.object({ session_id: SessionId });

/**
 * `session.rewind`: the conversation goes back to just before the user message `message_id` (a
 * stored id of this session, as in `session.history`). `files: true` also restores the session
 * folder from the file checkpoint taken in that message's turn (or a later one), when there is one.
 */
export const SessionRewindParams = z.object({
  session_id: SessionId,
  message_id: z.number().int().positive(),
  files: z.boolean().optional(),
});

/** What a restore of files did (`session.rewind` with `files`). */
export const RewoundFiles = z.object({
  /** Short hash of the checkpoint restored; null when no checkpoint of that turn exists. */
  restored: z.string().nullable(),
  written: z.number().int().nonnegative(),
  deleted: z.number().int().nonnegative(),
  /** One or more lines for the user (what was restored, how to undo it, or why nothing was). */
  message: z.string(),
});

/** Result of `session.undo`, `session.retry` and `session.rewind`. */
export const SessionRewindResult = z.object({
  /** Stored messages removed (the user message included). */
  removed: z.number().int().nonnegative(),
  /** Id of the user message the conversation went back to (now gone). */
  message_id: z.number().int().positive(),
  /** That message's text: the composer offers it again (`/rewind`), `/retry` sends it again. */
  text: z.string(),
  /** `session.retry`: the prompt that re-runs `text`. */
  prompt_id: z.string().optional(),
  files: RewoundFiles.optional(),
});

/**
 * `session.fork`: a new session with this one's messages copied — all of them, or those before the
 * user message `message_id` — with `parent_session_id` set; the original stays as it is.
 */
export const SessionForkParams = z.object({
  session_id: SessionId,
  message_id: z.number().int().positive().optional(),
  title: z.string().max(200).optional(),
});
export const SessionForkResult = z.object({
  session: SessionInfo,
  /** The session forked from (after compression: its current id). */
  parent_session_id: z.string(),
  /** With `message_id`: that message's text (the composer offers it in the fork). */
  text: z.string().optional(),
});

/**
 * `session.steer`: guidance for the running turn. It reaches the model at the next step boundary
 * (after the tool calls in progress, before the next model request) as a user message marked as
 * guidance, without interrupting the turn. When no turn runs, or the turn ends before a boundary,
 * the text runs as the next prompt instead.
 */
export const SessionSteerParams = z.object({
  session_id: SessionId,
  text: z.string().min(1).max(100_000),
});
export const SessionSteerResult = z.object({
  steer_id: z.string(),
  /** `pending`: waits for the next step boundary; `prompt`: runs (or queued) as a prompt. */
  status: z.enum(['pending', 'prompt']),
  /** With `prompt`: the prompt's id. */
  prompt_id: z.string().optional(),
});

/**
 * `session.rewound`: the stored conversation of this session changed other than by appending
 * (`/undo`, `/retry`, `/rewind`). Clients reload the transcript (attach again for a snapshot).
 */
export const SessionRewoundPayload = z.object({
  reason: z.enum(['undo', 'retry', 'rewind']),
  /** The user message the conversation went back to (removed). */
  message_id: z.number().int().positive(),
  removed: z.number().int().nonnegative(),
  /** Text of that message. */
  text: z.string(),
  /** Who asked (connection id or client name). */
  by: z.string().optional(),
  /** What the file restore did, when asked for. */
  files: z.string().optional(),
});

/**
 * `prompt.steered`: guidance for the running turn changed state. `pending` — accepted, waits for
 * the next step boundary; `delivered` — stored as a guidance message and given to the model;
 * `prompt` — the turn ended first, so it runs as the next prompt (`prompt_id`).
 */
export const PromptSteeredPayload = z.object({
  steer_id: z.string(),
  text: z.string(),
  state: z.enum(['pending', 'delivered', 'prompt']),
  by: z.string().optional(),
  prompt_id: z.string().optional(),
});

/** The conversation methods, merged into the method table (methods.ts). */
export const ConversationMethods = {
  'session.undo': { params: SessionUndoParams, result: SessionRewindResult },
  'session.retry': { params: SessionUndoParams, result: SessionRewindResult },
  'session.rewind': { params: SessionRewindParams, result: SessionRewindResult },
  'session.fork': { params: SessionForkParams, result: SessionForkResult },
  'session.steer': { params: SessionSteerParams, result: SessionSteerResult },
} as const;

/** The conversation events, merged into the event table (wire-events.ts). */
export const ConversationEventPayloads = {
  'session.rewound': SessionRewoundPayload,
  'prompt.steered': PromptSteeredPayload,
} as const;
