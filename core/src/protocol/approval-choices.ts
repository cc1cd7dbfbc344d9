/**
 * The words of approval and clarify requests: the one list of approval choices and the request
 * kinds. Everything else derives from it — the protocol's zod enum (server-requests.ts), the
 * guard and the daemon (core/src/approvals/pending.ts, which also validates answers against it),
 * the TUI and `hermes chat`. No imports, so the agent loop and `hermes chat` load it without zod.
 */

/** The answers a user can give to an approval request, in the order a frontend offers them. */
export const APPROVAL_CHOICES = ['once', 'session', 'always', 'deny'] as const;

/** One approval answer. */
export type ApprovalChoice = (typeof APPROVAL_CHOICES)[number];

/**
 * The fail-closed answer of an approval: what an unusable answer, a timeout or an interrupt
 * settles it with.
 */
export const APPROVAL_FALLBACK: ApprovalChoice = 'deny';

/**
 * Why a `deny` was given, when it was not a person's decision: `no_approver` — the answering
 * frontend has no one who could approve (headless `hermes chat`, the HTTP API server). The model is
 * then told that no one could approve the command here, and how the user can allow it, instead of
 * "the user denied". Only valid with `deny`.
 */
export const APPROVAL_DENY_REASONS = ['no_approver'] as const;

/** A reason given with a `deny`. */
export type ApprovalDenyReason = (typeof APPROVAL_DENY_REASONS)[number];

/** The kinds of open requests (`approval.request`, `clarify.request`). */
export const REQUEST_KINDS = ['approval', 'clarify'] as const;

/** The kind of an open request. */
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** True when `value` is exactly one of the approval choices (no case folding, no trimming). */
export function isApprovalChoice(value: unknown): value is ApprovalChoice {
  return typeof value === 'string' && (APPROVAL_CHOICES as readonly string[]).includes(value);
}
