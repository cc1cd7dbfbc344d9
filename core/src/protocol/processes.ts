/**
 * Background processes on the wire: the record clients see, the `process.*` methods' params and
 * results, and the `process.changed` event. Times are ISO 8601 strings (UTC). A client sees only
 * the processes of the profile it names (default: its connection's profile).
 */
import { z } from 'zod';

const ProfileName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'not a valid profile id');

/** A background process as clients see it (core/src/processes/record.ts). */
export const BackgroundProcessInfo = z.object({
  /** `bg-` and 8 hex digits. */
  id: z.string(),
  /** Pid of the process group's leader. */
  pid: z.number().int(),
  profile: z.string(),
  /** The session whose tool call started it. */
  session: z.string(),
  command: z.string(),
  cwd: z.string(),
  /** Absolute path of its output log. */
  log: z.string(),
  started_at: z.string(),
  /** `running`, `exited`, `killed` or `gone` (ended while no daemon watched; exit status unknown). */
  state: z.enum(['running', 'exited', 'killed', 'gone']),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  ended_at: z.string().nullable(),
  /** The session is told when it ends. */
  notify: z.boolean(),
  /** Started by an earlier daemon and adopted at this one's start: no stdin, exit status unknown. */
  adopted: z.boolean(),
});
export type BackgroundProcessInfo = z.infer<typeof BackgroundProcessInfo>;

export const ProcessListParams = z.object({ profile: ProfileName.optional() });
export const ProcessListResult = z.object({
  /** The profile's processes (running and recently ended), newest first. */
  processes: z.array(BackgroundProcessInfo),
  /** How many of them run. */
  running: z.number().int().nonnegative(),
});

export const ProcessKillParams = z.object({ id: z.string().min(1), profile: ProfileName.optional() });
export const ProcessKillResult = z.object({ process: BackgroundProcessInfo });

/**
 * `process.changed` (session_id `*`): a background process of a profile started, ended, was
 * adopted after a daemon restart, or is being stopped because the daemon stops.
 */
export const ProcessChangedPayload = z.object({
  profile: z.string(),
  /** `started`, `ended`, `adopted` or `stopping`. */
  reason: z.enum(['started', 'ended', 'adopted', 'stopping']),
  process: BackgroundProcessInfo,
  /** Running processes of the profile after the change. */
  running: z.number().int().nonnegative(),
});
