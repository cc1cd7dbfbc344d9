/** Types of the approval guard. */
import type { ApprovalChoice, ApprovalDenyReason } from '../protocol/approval-choices.js';
import type { PendingRequest } from './pending.js';
import type { SmartAssessment } from './smart.js';

export type { SmartAssessment, SmartVerdict } from './smart.js';
/** The answers a user can give to an approval request, and their one list (in offering order). */
export { APPROVAL_CHOICES, type ApprovalChoice } from '../protocol/approval-choices.js';

/** The pseudo-pattern every `execute_code` script matches: the key of the entries approving a script. */
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
  /** Stable keys of the rules that matched, one per hit. */
  patternKeys: string[];
  /**
   * The entries `session` and `always` would store (format: allowlist-entry.ts), one per distinct
   * hit: exactly what those answers approve. Frontends show them on the card.
   */
  allows: string[];
  /**
   * What the user may answer: all four, or only `once`/`deny` after the smart check judged the
   * command dangerous (an override for this one command; nothing is remembered).
   */
  choices: readonly ApprovalChoice[];
  /** The smart check's assessment that led to asking (smart mode only). */
  smart?: SmartAssessment;
  /**
   * A file edit waiting for approval (`approvals.edits: ask`): the file as shown to the user and
   * the change as a unified diff (capped, tools/edit-confirm.ts). `command` then names the tool
   * and the file.
   */
  edit?: EditApproval;
}

/** A file edit shown before it is written: the path as shown, and a unified diff of the change. */
export interface EditApproval {
  path: string;
  diff: string;
}

/**
 * Asks a human. Resolves with the choice, which the guard gives to `pending.answer`; a rejection
 * is an unusable answer (deny, fail closed). `signal` aborts once the request is settled in any
 * way (answered, timed out, interrupted): drop the prompt then.
 * @param pending the request itself, owner of its deadline and of the first-answer-wins rule
 *   (pending.ts). A frontend with several answerers (the daemon) files it and lets each answer
 *   through `pending.answer`; a simple prompt just resolves with its choice.
 */
export type ApprovalCallback = (
  req: ApprovalRequest,
  signal: AbortSignal,
  pending?: PendingRequest<'approval'>,
) => Promise<ApprovalChoice | ApprovalAnswer>;

/**
 * A choice with who gave it (`client:<instance>`, `connection:<id>`, `timeout`, `interrupt` … as
 * in the protocol's `request.resolved`), for frontends that record it.
 */
export interface ApprovalAnswer {
  choice: ApprovalChoice;
  by: string;
  /**
   * With `deny`: why, when no person decided (`no_approver`: the frontend has no one who could
   * approve). The guard then denies with reason `no_frontend`, not `denied`.
   */
  reason?: ApprovalDenyReason;
}

/**
 * The guard's verdict for one command. `asked` is set when a human was asked: the answer, or
 * `deny` by `timeout` / `interrupt` when none came. `smart` is set when the smart check ran;
 * `smart_approved` means it approved the command and nobody was asked. `floor` refuses a
 * catastrophic command in every mode (detect.ts `Detection.floor`); nobody is asked.
 */
export type ApprovalVerdict = (
  | { allowed: true; reason: 'safe' | 'mode_off' | 'allowlist' | 'session' | 'approved' | 'smart_approved' }
  | {
      allowed: false;
      reason: 'denied' | 'timeout' | 'no_frontend' | 'interrupted' | 'floor';
      message: string;
    }
) & { asked?: ApprovalAnswer; smart?: SmartAssessment };
