/** Checks of caller-supplied values before they reach SQL; every error names the field. */
import { SessionDBError } from './errors.js';
import type { MessagePatch, MessageRecord, NewMessage } from './types.js';

/** Longest title kept, in characters. */
export const MAX_TITLE_CHARS = 200;
/** Roles a message may have. */
export const MESSAGE_ROLES: readonly MessageRecord['role'][] = ['system', 'user', 'assistant', 'tool'];
/** Fields `updateMessage` accepts. */
export const PATCHABLE_FIELDS = [
  'content',
  'tool_calls',
  'finish_reason',
  'reasoning',
  'status',
  'outcome',
] as const;

const invalid = (file: string, message: string): SessionDBError =>
  new SessionDBError(`${file}: ${message}`, file, 'EINVAL');

/**
 * A title as stored: trimmed, inner whitespace and control characters collapsed to one space;
 * empty → null.
 * @throws SessionDBError `EINVAL` for a non-string or a title over `MAX_TITLE_CHARS`.
 */
export function normalizeTitle(title: unknown, file: string): string | null {
  if (title === null || title === undefined) return null;
  if (typeof title !== 'string') throw invalid(file, `title must be a string, got ${typeof title}`);
  // eslint-disable-next-line no-control-regex
  const t = title.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  if (t.length > MAX_TITLE_CHARS) {
    throw invalid(file, `title is ${t.length} characters long (at most ${MAX_TITLE_CHARS})`);
  }
  return t || null;
}

/** A text field: string or null (undefined → null). @throws SessionDBError `EINVAL` naming `field`. */
export function optionalText(value: unknown, field: string, file: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string')
    throw invalid(file, `${field} must be a string or null, got ${typeof value}`);
  return value;
}

/**
 * `tool_calls` as stored: JSON text. A string is kept as given; an array or object (the OpenAI
 * `tool_calls` value itself) is serialised.
 */
export function toolCallsText(value: unknown, file: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  throw invalid(file, `tool_calls must be JSON text, an array or null, got ${typeof value}`);
}

/** A non-negative integer count (tokens). @throws SessionDBError `EINVAL` naming `field`. */
export function count(value: unknown, field: string, file: string): number {
  const n = Number(value ?? 0);
  if (!Number.isFinite(n) || n < 0)
    throw invalid(file, `${field} must be a non-negative number, got ${String(value)}`);
  return Math.round(n);
}

/**
 * The row values of a new message, in column order (role … attachments); timestamp defaults to `now`.
 * @throws SessionDBError `EINVAL` naming the bad field (role, content, timestamp …).
 */
export function messageValues(msg: NewMessage, file: string, now: number): unknown[] {
  if (!msg || typeof msg !== 'object') throw invalid(file, 'message must be an object');
  if (!MESSAGE_ROLES.includes(msg.role)) {
    throw invalid(
      file,
      `message role must be one of ${MESSAGE_ROLES.join(', ')}, got ${JSON.stringify(msg.role)}`,
    );
  }
  const ts = msg.timestamp ?? now;
  if (!Number.isFinite(ts)) throw invalid(file, `message timestamp must be epoch ms, got ${String(ts)}`);
  return [
    msg.role,
    optionalText(msg.content, 'content', file),
    toolCallsText(msg.tool_calls, file),
    optionalText(msg.tool_call_id, 'tool_call_id', file),
    optionalText(msg.tool_name, 'tool_name', file),
    Math.round(ts),
    optionalText(msg.finish_reason, 'finish_reason', file),
    optionalText(msg.reasoning, 'reasoning', file),
    optionalText(msg.status, 'status', file),
    optionalText(msg.outcome, 'outcome', file),
    optionalText(msg.attachments, 'attachments', file),
  ];
}

/**
 * The SET clause and values of a message patch.
 * @throws SessionDBError `EINVAL` naming an unknown or mistyped field.
 */
export function patchColumns(patch: MessagePatch, file: string): { sets: string[]; values: unknown[] } {
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === undefined) continue;
    if (!(PATCHABLE_FIELDS as readonly string[]).includes(key)) {
      throw invalid(file, `updateMessage cannot change "${key}" (allowed: ${PATCHABLE_FIELDS.join(', ')})`);
    }
    sets.push(`${key} = ?`);
    values.push(key === 'tool_calls' ? toolCallsText(value, file) : optionalText(value, key, file));
  }
  return { sets, values };
}

/**
 * A session state for the daemon lifecycle (`active`, `ended`, `interrupted`, `resume_pending` …):
 * 1–32 characters of `a-z`, `0-9`, `_`.
 * @throws SessionDBError `EINVAL`.
 */
export function sessionState(state: unknown, file: string): string {
  if (typeof state !== 'string' || !/^[a-z0-9_]{1,32}$/.test(state)) {
    throw invalid(
      file,
      `session state must be 1-32 characters of a-z, 0-9, _ (got ${JSON.stringify(state)})`,
    );
  }
  return state;
}
