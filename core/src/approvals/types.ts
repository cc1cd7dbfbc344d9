/** Types of the approval guard (issue 2 "Approvals", DESIGN §6). */
import type { SmartAssessment } from './smart.js';

export type { SmartAssessment, SmartVerdict } from './smart.js';

/** The answers a user can give to an approval request. */
export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny';

/** All choices, in the order a frontend offers them. */
export const APPROVAL_CHOICES: readonly ApprovalChoice[] = ['once', 'session', 'always', 'deny'];

/** The pseudo-pattern every `execute_code` script matches; `session`/`always` store this key. */
export const EXECUTE_CODE_KEY = 'execute-code';

/** What the frontend is asked: the command and why it was flagged. */
export interface ApprovalRequest {
  /** Unique id of this request (the daemon uses it for `srq-…` ids and `request.resolved`). */
  requestId: string;
  sessionId: string;
  command: string;
  /**
   * Human description of the matched dangerous pattern(s); in smart mode followed by the smart
   * check's verdict and reason (`— smart check: …`), so every frontend shows it.
   */
  description: string;
  /** Stable keys of the matched patterns; `session`/`always` approve these. */
  patternKeys: string[];
  /**
   * What the user may answer: all four, or only `once`/`deny` after the smart check judged the
   * command dangerous (an override for this one command; nothing is remembered).
   */
  choices: readonly ApprovalChoice[];
  /** The smart check's assessment that led to asking (smart mode only). */
  smart?: SmartAssessment;
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
 * `deny` by `timeout` / `interrupt` when none came. `smart` is set when the smart check ran;
 * `smart_approved` means it approved the command and nobody was asked.
 */
export type ApprovalVerdict = (
  | { allowed: true; reason: 'safe' | 'mode_off' | 'allowlist' | 'session' | 'approved' | 'smart_approved' }
  | { allowed: false; reason: 'denied' | 'timeout' | 'no_frontend' | 'interrupted'; message: string }
) & { asked?: ApprovalAnswer; smart?: SmartAssessment };
