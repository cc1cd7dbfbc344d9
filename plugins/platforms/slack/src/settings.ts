/**
 * The Slack adapter's settings (read from `platforms.slack` by index.ts), its reply chunk length,
 * and the Slack error codes it treats as final or as a lost bot token.
 */
/**
 * Longest reply chunk, characters. Slack takes up to 40,000 characters of `text` but shows
 * messages beyond ~4,000 cut ("Show more" and truncation); 3,900 leaves room for the mrkdwn
 * escapes added after splitting.
 */
export const SLACK_MAX_LENGTH = 3_900;

/** Settings of the adapter. */
export interface SlackSettings {
  /** Web API base URL, ending in `/`. */
  apiBase: string;
  botToken: string;
  appToken: string;
  /** Channel messages must mention the bot (DMs never need to). */
  requireMention: boolean;
  /** A top-level channel message is answered in a thread under it. */
  replyInThread: boolean;
  /** The slash command routed to the agent, e.g. `/hermes`. */
  slashCommand: string;
  /** Largest inbound file downloaded, bytes. */
  maxFileBytes: number;
  /** The configured model accepts images (they go to it as image parts). */
  imagesToModel: boolean;
  /** Largest image given to the model, bytes (`images.max_bytes`); larger ones are files. */
  imageMaxBytes?: number;
  /** Emoji name put on a message while its turn runs ('' for none). */
  workingReaction: string;
  /** Socket Mode ping timeout, ms. */
  pingTimeoutMs: number;
  /** A working reaction not renewed for this long is taken off, ms (default: working.ts). */
  workingStaleMs?: number;
}

/** Slack errors after which a retry of the same call cannot succeed. */
export const FINAL_ERRORS = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'msg_too_long',
  'no_text',
  'invalid_blocks',
  'restricted_action',
  'cant_update_message',
  'message_not_found',
  'edit_window_closed',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'missing_scope',
]);

/** Errors meaning the bot token no longer works. */
export const TOKEN_GONE = new Set(['invalid_auth', 'token_revoked', 'token_expired', 'account_inactive']);
