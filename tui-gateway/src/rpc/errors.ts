/**
 * Errors of the JSON-RPC layer that are not part of the handler contract (`RpcMethodError` lives in
 * types.ts): a peer's error answer, and the formatting of zod issues into `-32602` messages.
 */
import type { z } from 'zod';

/**
 * The peer answered a request with a JSON-RPC error object (`{code, message, data?}`).
 * Thrown by `Connection.request` (the daemon asking a client).
 */
export class RpcFailureError extends Error {
  constructor(
    /** JSON-RPC error code (see `RpcErrorCode` in @hermes/core/protocol). */
    readonly code: number,
    message: string,
    /** `error.data` as sent by the peer. */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcFailureError';
  }
}

/** One zod issue as sent in `error.data.issues` of a `-32602` answer. */
export interface IssueSummary {
  /** Dotted path inside params, `(params)` for the params object itself. */
  path: string;
  message: string;
}

/** Summarizes zod issues: path (dotted, `(params)` at the top) and message of each. */
export function summarizeIssues(error: z.ZodError, root = '(params)'): IssueSummary[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : root,
    message: issue.message,
  }));
}

/**
 * Formats zod issues into one line naming every failing path, e.g.
 * `invalid params for session.attach: session_id: Invalid input: expected string, received undefined`.
 * At most `max` issues are listed; the rest are counted.
 */
export function formatIssues(prefix: string, error: z.ZodError, root = '(params)', max = 5): string {
  const all = summarizeIssues(error, root);
  const shown = all.slice(0, max).map((i) => `${i.path}: ${i.message}`);
  const more = all.length > max ? `; and ${all.length - max} more` : '';
  return `${prefix}: ${shown.join('; ')}${more}`;
}
