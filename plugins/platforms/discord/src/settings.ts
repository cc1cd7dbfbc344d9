/**
 * `platforms.discord`: the Discord platform's own keys (the keys every platform shares —
 * `enabled`, `allowed_users`, `edit_interval_ms` … — are parsed by core and stripped here).
 */
import { z } from 'zod';

/**
 * A Discord id (a snowflake): digits, best written in quotes — a YAML number of 18 digits has
 * already lost its last digits when it is read, so an unsafe number is refused.
 */
const Snowflake = z
  .union([
    z.string(),
    z.number().refine(Number.isSafeInteger, {
      error: 'write Discord ids in quotes (a number this long loses its last digits)',
    }),
  ])
  .transform((v) => String(v).trim())
  .pipe(z.string().regex(/^\d{1,20}$/, { error: 'expected a Discord id (digits)' }));

/** The settings schema of `platforms.discord`. */
export const DiscordSettingsSchema = z.object({
  /**
   * REST API base URL without the version (`/v10` is appended by discord.js). A local stand-in or
   * a REST proxy works too.
   */
  api_base: z
    .string()
    .regex(/^https?:\/\/\S+$/, { error: 'expected an http(s) URL' })
    .default('https://discord.com/api'),
  /**
   * Gateway WebSocket URL; absent: the one `GET /gateway/bot` names (Discord's normal way). Set it
   * for a gateway proxy.
   */
  gateway_url: z
    .string()
    .regex(/^wss?:\/\/\S+$/, { error: 'expected a ws(s) URL' })
    .optional(),
  /**
   * In guild channels and threads answer only messages that mention the bot or reply to one of
   * its messages (DMs are always answered).
   */
  require_mention: z.boolean().default(true),
  /** Guild (server) ids the bot answers in; empty: every guild it is in. */
  guilds: z.array(Snowflake).default([]),
  /** Channel ids the bot answers in (a thread counts as its parent channel); empty: every channel. */
  channels: z.array(Snowflake).default([]),
  /**
   * Where the product's slash commands are registered on connect (a bulk overwrite): `global`
   * (every guild and DMs; Discord may take a while to show changes), `guilds` (each guild of
   * `guilds`, else each guild the bot is in: shown at once), `off`.
   */
  slash_commands: z.enum(['global', 'guilds', 'off']).default('global'),
  /** Largest attachment downloaded from a message, bytes (bigger ones are named, not fetched). */
  max_attachment_bytes: z
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
});

/** Parsed `platforms.discord`. */
export type DiscordSettings = z.output<typeof DiscordSettingsSchema>;
