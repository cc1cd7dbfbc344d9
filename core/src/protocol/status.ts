/**
 * The daemon-wide status feed on the wire: `status.subscribe` (a snapshot of every live session
 * across profiles, then `status.changed` events while the connection lives) and the row each
 * session is shown as. Times are epoch milliseconds.
 */
import { z } from 'zod';
import { CostStatusSchema } from './events.js';

/** What a live session is doing, as the feed shows it. */
export const SessionActivitySchema = z.enum(['working', 'approval', 'clarify', 'idle', 'failed']);
export type SessionActivity = z.infer<typeof SessionActivitySchema>;

/** Where a session's prompts come from: a terminal, a chat platform, cron, the HTTP API, an editor. */
export const SessionOriginSchema = z.enum(['tui', 'platform', 'cron', 'api', 'acp', 'other']);
export type SessionOrigin = z.infer<typeof SessionOriginSchema>;

/** One live session in the status feed. */
export const LiveSessionStatusSchema = z.object({
  profile: z.string(),
  session_id: z.string(),
  title: z.string().nullable(),
  /** The stored source: `tui`, a platform's name (`telegram`), `cron`, `api_server`, `acp` … */
  source: z.string(),
  /** The kind of `source`. */
  origin: SessionOriginSchema,
  /**
   * `working` (a turn runs), `approval` (a command waits for approval: `command`), `clarify` (a
   * question waits: `question`), `idle`, `failed` (its last turn ended in an error).
   */
  state: SessionActivitySchema,
  /** The command waiting for approval (state `approval`). */
  command: z.string().optional(),
  /** The question waiting for an answer (state `clarify`). */
  question: z.string().optional(),
  /** Where a waiting approval was escalated to (a platform's name), when it was. */
  escalated_to: z.string().optional(),
  /** Start of the running turn (null when idle), epoch ms. */
  turn_started_at: z.number().nullable(),
  /** Tokens the session's model calls used in this daemon so far. */
  tokens: z.number().int().nonnegative(),
  /** USD spent so far, when a price is known (null: unknown). */
  cost_usd: z.number().nonnegative().nullable(),
  /** How `cost_usd` is known (as `Usage.cost_status`: `local` is a local server, free); absent before any priced call. */
  cost_status: CostStatusSchema.optional(),
  /** Attached clients (TUIs, a platform during its turns). */
  clients: z.number().int().nonnegative(),
  /** Last change of this row, epoch ms. */
  updated_at: z.number(),
});
export type LiveSessionStatus = z.infer<typeof LiveSessionStatusSchema>;

export const StatusSubscribeParams = z
  .object({
    /** false: answer the snapshot only, no `status.changed` events follow (default true). */
    watch: z.boolean().optional(),
  })
  .optional();
export const StatusSubscribeResult = z.object({
  /** Every live session across profiles, oldest first. */
  sessions: z.array(LiveSessionStatusSchema),
  /** When the snapshot was taken, epoch ms. */
  at: z.number(),
});

/**
 * `status.changed` (session_id `*`): the rows that changed since the last event (bursts are
 * coalesced: at most one event per 100 ms), and the ids of sessions that left (unloaded or ended).
 */
export const StatusChangedPayload = z.object({
  sessions: z.array(LiveSessionStatusSchema),
  /** `profile/session_id` of rows to drop. */
  removed: z.array(z.string()),
  at: z.number(),
});
