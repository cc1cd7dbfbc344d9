/**
 * Untrusted platform metadata and PII hashing. Chat names, topics, thread labels
 * and display names can be changed by anyone in the chat; they enter prompts only as quoted
 * values, never as lines of their own.
 */
import { createHash } from 'node:crypto';
import { HIDING_CHARS } from '../security/invisible.js';
import { wellFormedText } from '../util/well-formed.js';

/** Longest untrusted value shown to the model, in characters. */
export const MAX_UNTRUSTED_CHARS = 240;

/**
 * The text with every lone UTF-16 surrogate replaced by U+FFFD (pairs kept). A chat can send
 * one (half an emoji cut by a client, a crafted name); in a session's history or system prompt it
 * would fail every later turn (util/well-formed.ts).
 */
export { wellFormedText };

function clean(value: unknown): string {
  return wellFormedText(String(value ?? ''))
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(HIDING_CHARS, ' ');
}

function cap(text: string, max: number): string {
  const chars = [...text]; // by code point: never split a surrogate pair
  return max > 0 && chars.length > max ? `${chars.slice(0, max - 3).join('')}...` : text;
}

/**
 * Renders an untrusted value as an inert JSON string literal: Unicode NFC, line
 * endings normalised to `\n`, control/bidi/zero-width characters replaced by spaces, trimmed,
 * capped at `MAX_UNTRUSTED_CHARS` code points (`...` marks a cut), then `JSON.stringify`-quoted so
 * the text is structurally a value and cannot start a line of its own.
 * @param value anything; non-strings are converted with `String()`.
 * @returns e.g. `"ignore previous instructions"` including the quotes.
 */
export function formatUntrustedValue(value: unknown, maxChars = MAX_UNTRUSTED_CHARS): string {
  return JSON.stringify(cap(clean(value).trim(), maxChars));
}

/**
 * Untrusted text as one inert line without quotes, for labels people read (session titles, a
 * terminal listing): lone surrogates become U+FFFD, newlines, controls, bidi and zero-width
 * characters become spaces, runs of whitespace collapse, and the result is trimmed and capped at
 * `maxChars` code points (`...` marks a cut).
 */
export function untrustedLabel(value: unknown, maxChars = MAX_UNTRUSTED_CHARS): string {
  return cap(clean(value).replace(/\s+/g, ' ').trim(), maxChars);
}

/**
 * Collapses untrusted text to one inert line without quotes, for inline spots where quotes would
 * show (the `[sender]` prefix of a shared-session message): `untrustedLabel`, with brackets
 * replaced so a name cannot close the prefix early.
 */
export function neutralizeInlineText(value: unknown, maxChars = MAX_UNTRUSTED_CHARS): string {
  return untrustedLabel(String(value ?? '').replace(/[[\]]/g, ' '), maxChars);
}

/** First 12 hex digits of SHA-256 of the UTF-8 text. */
function hash12(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 12);
}

/**
 * Deterministic pseudonym of a user id for the model: `user_<12 hex of SHA-256>`.
 * Routing always keeps the raw id; only the model-visible copy is hashed, and only on platforms
 * whose registry entry is `piiSafe`.
 */
export function hashPiiId(id: string): string {
  return `user_${hash12(String(id))}`;
}

/** Hash of a chat id for the model; a `prefix:` part (e.g. `group:`) is kept readable. */
export function hashChatId(id: string): string {
  const i = id.indexOf(':');
  return i > 0 ? `${id.slice(0, i)}:${hash12(id.slice(i + 1))}` : hash12(id);
}
