/**
 * The `platforms:` section of config.yaml: one loose object per platform. The keys every platform
 * understands are parsed here; a platform's own keys (`server`, `channels`, `api_base` …) survive
 * and are validated by the settings schema of its definition (define-platform.ts). Secrets (bot
 * tokens, passwords, keys) never live here: they come from the home's `.env` (config/secrets.ts).
 *
 * ```yaml
 * platforms:
 *   telegram:
 *     enabled: true
 *     allowed_users: [123456]          # raw platform user ids; also <PLATFORM>_ALLOWED_USERS in .env
 *     reset: { mode: both, at_hour: 4, idle_minutes: 1440 }
 *     reset_by_type: { group: { mode: idle, idle_minutes: 120 } }
 *     admins: [123456]                 # when set, others may run only help/whoami (+ user_commands)
 *     allow_admin_from: [123456]       # per scope instead: DMs …
 *     group_allow_admin_from: [789]    # … and groups (user_allowed_commands / group_user_allowed_commands)
 *     footer: true
 * gateway:
 *   session_reset: { mode: none }      # default policy of every platform
 * ```
 */
import { z } from 'zod';
import { openSections } from '../config/open-sections.js';
import { PLATFORM_NAME_RE } from './delivery-target.js';

/** A reset policy as written in config (fields optional; see reset-policy.ts). */
export const ResetPolicyConfigSchema = z.looseObject({
  mode: z.enum(['idle', 'daily', 'both', 'none']).optional(),
  at_hour: z.number().int().min(0).max(23).optional(),
  idle_minutes: z.number().int().positive().optional(),
});

/** User ids may be written as YAML numbers (Telegram); they are compared as strings. */
const UserId = z.union([z.string(), z.number()]).transform((v) => String(v).trim());

/**
 * Settings every platform understands; adapters add their own keys, so the section is marked open
 * (its unknown keys are not reported by the config check).
 */
export const PlatformConfigSchema = z.looseObject({
  /** Start this platform with the daemon. */
  enabled: z.boolean().default(false),
  /** Raw user ids allowed to talk to the agent (besides paired users and the .env list). */
  allowed_users: z.array(UserId).default([]),
  /** Everybody may talk to the agent (no allow-list, no pairing). */
  allow_all_users: z.boolean().default(false),
  /** What an unknown user's direct message gets: a pairing code, or nothing. */
  unauthorized_dm: z.enum(['pair', 'ignore']).default('pair'),
  /** One session per participant in groups/channels. */
  group_sessions_per_user: z.boolean().default(true),
  /** One session per participant in threads. */
  thread_sessions_per_user: z.boolean().default(false),
  reset: ResetPolicyConfigSchema.optional(),
  reset_by_type: z
    .looseObject({
      dm: ResetPolicyConfigSchema.optional(),
      group: ResetPolicyConfigSchema.optional(),
      channel: ResetPolicyConfigSchema.optional(),
      thread: ResetPolicyConfigSchema.optional(),
    })
    .optional(),
  /** A new message interrupts the session's running turn (else it is queued). */
  interrupt_on_message: z.boolean().default(false),
  /** Hash user/chat ids in the model's context block (only on platforms marked PII-safe). */
  redact_pii: z.boolean().default(false),
  /** Append the runtime footer (model · context % · cwd) to replies. */
  footer: z.boolean().default(false),
  /** Stream replies by editing one message, where the platform can edit. */
  streaming: z.boolean().default(true),
  /** Least time between two edits of a streaming reply, ms. */
  edit_interval_ms: z.number().int().min(100).default(1000),
  /** Admin user ids; when non-empty, non-admins may only run help, whoami and `user_commands`. */
  admins: z.array(UserId).default([]),
  /** Extra slash commands non-admins may run when `admins` is set. */
  user_commands: z.array(z.string()).default([]),
  /**
   * Slash-command admins in direct messages (the original's key; absent: `admins`). Admin lists
   * are per scope: a DM admin is not a group admin.
   */
  allow_admin_from: z.array(UserId).optional(),
  /** Commands non-admins may run in DMs (absent: `user_commands`, else the group list). */
  user_allowed_commands: z.array(z.string()).optional(),
  /** Slash-command admins in groups, channels and threads (absent: `admins`). */
  group_allow_admin_from: z.array(UserId).optional(),
  /** Commands non-admins may run in groups, channels and threads (absent: `user_commands`). */
  group_user_allowed_commands: z.array(z.string()).optional(),
  /** The original's nesting of platform keys: the four keys above are read from here too. */
  extra: z
    .looseObject({
      allow_admin_from: z.array(UserId).optional(),
      user_allowed_commands: z.array(z.string()).optional(),
      group_allow_admin_from: z.array(UserId).optional(),
      group_user_allowed_commands: z.array(z.string()).optional(),
    })
    .optional(),
  /** Chat id of the platform's home channel (delivery target `<platform>`). */
  home_channel: z.union([z.string(), z.number()]).transform(String).optional(),
  /** Overrides the platform's message length limit (characters). */
  max_message_length: z.number().int().positive().optional(),
  /** Working directory of new sessions from this platform (default: the home's workspace/). */
  cwd: z.string().optional(),
  /**
   * Largest file received with a message that is saved to the session's media folder, bytes; a
   * larger one is not downloaded or saved, and the turn's text says so naming this key.
   */
  max_file_bytes: z
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024),
  /**
   * A reply longer than this many characters is sent as a file with a one-line summary, on a
   * platform that takes uploads (overrides the platform's own threshold; 0: always split instead).
   */
  long_reply_as_file_above: z.number().int().min(0).optional(),
});
// adapters own the rest of the section: the unknown-key check of config.yaml stays out of it
PlatformConfigSchema.register(openSections, { owner: 'the platform adapter' });
export type PlatformConfig = z.infer<typeof PlatformConfigSchema>;

/** `platforms:` — platform name → its settings. */
export const PlatformsConfigSchema = z
  .record(
    z.string().regex(PLATFORM_NAME_RE, 'platform names are lower-case letters, digits, _ and -'),
    PlatformConfigSchema,
  )
  .default({});
export type PlatformsConfig = z.infer<typeof PlatformsConfigSchema>;

/** The settings of one platform with every default filled (for a platform absent from config). */
export function platformConfigOf(platforms: PlatformsConfig | undefined, name: string): PlatformConfig {
  return platforms?.[name] ?? PlatformConfigSchema.parse({});
}
