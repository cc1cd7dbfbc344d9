/** Types of the approval guard (issue 2 "Approvals", DESIGN §6). */

/** The answers a user can give to an approval request. */
export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny';

/** All choices, in the order a frontend offers them. */
export const APPROVAL_CHOICES: readonly ApprovalChoice[] = ['once', 'session', 'always', 'deny'];

/** What the frontend is asked: the command and why it was flagged. */
export interface ApprovalRequest {
  /** Unique id of this request (the daemon uses it for `srq-…` ids and `request.resolved`). */
  requestId: string;
  sessionId: string;
  command: string;
  /** Human description of the matched dangerous pattern(s). */
  description: string;
  /** Stable keys of the matched patterns; `session`/`always` approve these. */
  patternKeys: string[];
  choices: readonly ApprovalChoice[];
}

/**
 * Asks a human. Resolves with the choice; the guard treats a rejection, an abort or a timeout as
 * `deny` (fail closed).
 */
export type ApprovalCallback = (
  req: ApprovalRequest,
  signal: AbortSignal,
) => Promise<ApprovalChoice | ApprovalAnswer>;

/**
 * A choice with who gave it (`connection:<id>`, `timeout`, `interrupt` … as in the protocol's
 * `request.resolved`), for frontends that record it.
 */
export interface ApprovalAnswer {
  choice: ApprovalChoice;
  by: string;
}

/**
 * The guard's verdict for one command. `asked` is set when a human was asked: the answer, or
 * `deny` by `timeout` / `interrupt` when none came.
 */
export type ApprovalVerdict = (
  | { allowed: true; reason: 'safe' | 'mode_off' | 'allowlist' | 'session' | 'approved' }
  | { allowed: false; reason: 'denied' | 'timeout' | 'no_frontend' | 'interrupted'; message: string }
) & { asked?: ApprovalAnswer };
