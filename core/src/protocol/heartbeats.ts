/**
 * Heartbeats on the wire: a recurring prompt run inside an existing session (`heartbeat.*`
 * methods). Times are ISO 8601 strings (UTC).
 */
import { z } from 'zod';

const ProfileName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'not a valid profile id');

/** One heartbeat as clients see it. */
export const HeartbeatInfo = z.object({
  /** `hb-` and 6 hex digits. */
  id: z.string(),
  profile: z.string(),
  session_id: z.string(),
  prompt: z.string(),
  /** The interval as given (`30m`, `2h`, `45s`). */
  every: z.string(),
  every_ms: z.number().int().positive(),
  created_at: z.string(),
  /** When it is due next. */
  next_run_at: z.string(),
  last_run_at: z.string().nullable(),
  /** Prompts it submitted so far. */
  runs: z.number().int().nonnegative(),
  /** True while a due tick waits for the session's running turn to end. */
  waiting: z.boolean(),
});
export type HeartbeatInfo = z.infer<typeof HeartbeatInfo>;

export const HeartbeatAddParams = z.object({
  session_id: z.string().min(1),
  /** `<n>s`, `<n>m`, `<n>h` or `<n>d` (at least 1 s). */
  every: z.string().min(2),
  prompt: z.string().min(1).max(8000),
  profile: ProfileName.optional(),
});
export const HeartbeatListParams = z.object({
  session_id: z.string().optional(),
  profile: ProfileName.optional(),
});
export const HeartbeatRemoveParams = z.object({ id: z.string().min(1), profile: ProfileName.optional() });
export const HeartbeatResult = z.object({ heartbeat: HeartbeatInfo });
export const HeartbeatListResult = z.object({ heartbeats: z.array(HeartbeatInfo) });
