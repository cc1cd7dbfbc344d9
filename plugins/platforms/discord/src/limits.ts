/**
 * Discord's message limits as the adapter applies them: the 2,000-character message, a prompt cut
 * to fit with its last line kept, and the 25-character nonce a delivery id becomes.
 */
import { createHash } from 'node:crypto';

/** Discord's message length limit, characters. */
export const DISCORD_MAX_LENGTH = 2000;

/** Longest `nonce` Discord takes, characters. */
const MAX_NONCE = 25;

/**
 * `text` cut to `max` characters, keeping its last line when that is short (a prompt's
 * "Reply /approve …" line).
 */
export function fit(text: string, max = DISCORD_MAX_LENGTH): string {
  if (text.length <= max) return text;
  const last = text.slice(text.lastIndexOf('\n') + 1);
  const keep = last.length < max / 2 ? last : '';
  return `${text.slice(0, max - keep.length - 2)}…\n${keep}`.slice(0, max);
}

/**
 * A delivery id as a Discord nonce: itself when it fits, else 25 characters of its SHA-256 — the
 * same on every retry, so `enforce_nonce` turns a repeated send into the message sent before.
 */
export function nonceOf(deliveryId: string): string {
  return deliveryId.length <= MAX_NONCE
    ? deliveryId
    : createHash('sha256').update(deliveryId).digest('base64url').slice(0, MAX_NONCE);
}
