/**
 * Cron on the wire: the job record clients see, the
 * `cron.*` methods' params and results, and the `cron.changed` event payload. Times are ISO 8601
 * strings (UTC), as in `<home>/cron/jobs.json`.
 */
import { z } from 'zod';

const ProfileName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'not a valid profile id');

/** A cron job as clients see it. */
export const CronJobInfo = z.object({
  id: z.string(),
  name: z.string(),
  prompt: z.string(),
  /** The schedule as written (`every 2h`, `0 9 * * *`, `once in 30m`). */
  schedule: z.string(),
  /** `scheduled`, `paused`, `completed` or `error`. */
  state: z.string(),
  enabled: z.boolean(),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  /** `ok`, `silent`, `error`, `blocked` (commands were refused; `last_error` names them), or null before the first run. */
  last_status: z.string().nullable(),
  last_error: z.string().nullable(),
  last_delivery_error: z.string().nullable(),
  deliver: z.array(z.string()),
  repeat: z.object({ times: z.number().int().nullable(), completed: z.number().int() }),
  skills: z.array(z.string()),
  model: z.string().nullable(),
  /** Set while a process runs the job. */
  running: z.object({ pid: z.number().int(), since: z.string() }).nullable(),
});
export type CronJobInfo = z.infer<typeof CronJobInfo>;

/** How the profile's ticker is doing (`hermes cron status`). */
export const CronHealth = z.object({
  /** `never`, `working`, `failing` or `stale`. */
  state: z.string(),
  last_tick_at: z.string().nullable(),
  last_success_at: z.string().nullable(),
  last_error: z.string().nullable(),
});

export const CronListParams = z.object({ profile: ProfileName.optional() });
export const CronListResult = z.object({ jobs: z.array(CronJobInfo), health: CronHealth });

export const CronJobRef = z.object({
  /** Job id, unique id prefix or exact name. */
  job_id: z.string().min(1),
  profile: ProfileName.optional(),
});
export const CronJobResult = z.object({ job: CronJobInfo });
export const CronRunResult = z.object({ job_id: z.string(), started: z.literal(true) });
export const CronOutputResult = z.object({
  job_id: z.string(),
  /** The newest output file, or null when the job never ran. */
  file: z.string().nullable(),
  content: z.string().nullable(),
});

/** `cron.changed` (session_id `*`): jobs of a profile changed; clients refetch with `cron.list`. */
export const CronChangedPayload = z.object({
  profile: z.string(),
  /** `created`, `updated`, `paused`, `resumed`, `removed`, `claimed`, `ran`, `file` (changed by another process). */
  reason: z.string(),
  job_ids: z.array(z.string()),
});
