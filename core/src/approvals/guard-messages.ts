/**
 * What an approval says: to the user, the description of what is asked (a rule's description,
 * with the smart check's verdict; a script's language and head; running outside the sandbox),
 * and to the model, the denial it gets as the tool result (denied, timed out, interrupted, no
 * one to ask, or a catastrophic command refused in every mode).
 */
import type { DangerousMatch } from './dangerous-patterns.js';
import type { RuleHit } from './detection-types.js';
import type { ScriptApproval } from './guard.js';
import type { SmartAssessment } from './smart.js';
import type { ApprovalVerdict } from './types.js';

/** What the user is told a request to run outside the sandbox is about. */
export const OUTSIDE_SANDBOX_DESCRIPTION =
  "run outside the sandbox: with your user's full access to every file, the network and Hermes's own settings";

/** Most of a script shown in the approval request, characters and lines. */
export const SCRIPT_SHOWN_CHARS = 6_000;
export const SCRIPT_SHOWN_LINES = 120;

/** What the user is told a script approval is about. */
export function scriptDescription(language: string): string {
  return `run a ${language} script (execute_code): arbitrary code with your user's access, which can read, change or delete files and start programs without passing the command checks`;
}

/**
 * The text shown as the approval request's `command` for a script: a header naming the language,
 * then the script's head (at most `SCRIPT_SHOWN_LINES` lines and `SCRIPT_SHOWN_CHARS` chars) and a
 * line saying how much is not shown.
 */
export function scriptRequestText(script: ScriptApproval): string {
  const lines = script.code.split('\n');
  let shown = lines.slice(0, SCRIPT_SHOWN_LINES).join('\n');
  if (shown.length > SCRIPT_SHOWN_CHARS) shown = shown.slice(0, SCRIPT_SHOWN_CHARS);
  const rest = script.code.length - shown.length;
  const hiddenLines = lines.length - shown.split('\n').length;
  const more =
    rest > 0
      ? `\n… (${rest.toLocaleString('en-US')} more chars${hiddenLines > 0 ? `, ${hiddenLines} more lines` : ''} not shown)`
      : '';
  return `execute_code (${script.language}):\n${shown}${more}`;
}

/** A verdict that denies. */
export type Denied = Extract<ApprovalVerdict, { allowed: false }>;

const DO_NOT_RETRY =
  'Do not run it again, and do not try to get the same effect another way (a different command, a script, ' +
  'or editing files). Tell the user the command was blocked and ask how they want to proceed.';

/**
 * How the user can allow what needed an approval where no one could give it (headless `hermes
 * chat`, the API server …): the default of `denialMessage`'s `hint`.
 */
export const NO_APPROVER_HINT =
  'To allow it, the user can run this request in an interactive session (`hermes chat` in a terminal, ' +
  'or `hermes tui`) and approve it there; answering `always` remembers it for this profile.';

/** The same for a cron job: nobody is ever there, so only the profile's cron setting can allow it. */
export const CRON_NO_APPROVER_HINT =
  'Cron jobs have no one to approve commands; the user can allow flagged commands in cron jobs with ' +
  '`hermes config set approvals.cron_mode allow`, or run this task in an interactive session ' +
  '(`hermes chat` in a terminal) and approve it there.';

const NO_APPROVER_TELL =
  'Do not run it again, and do not try to get the same effect another way (a different command, a script, ' +
  'or editing files). Tell the user it was blocked because no one could approve it here, and how they can allow it.';

/**
 * Builds the denial the model receives as the tool result.
 * @param reason why it was denied; `timeoutSec` is used for `timeout`.
 * @param hint for `no_frontend`: how the user can allow it (default `NO_APPROVER_HINT`).
 */
export function denialMessage(
  reason: Denied['reason'],
  description: string,
  timeoutSec?: number,
  subject = 'a command flagged as dangerous',
  hint = NO_APPROVER_HINT,
): string {
  const what = `${subject} (${description})`;
  switch (reason) {
    case 'denied':
      return `BLOCKED: The user denied ${what}. ${DO_NOT_RETRY}`;
    case 'timeout':
      return `BLOCKED: The user did not answer the approval request for ${what} within ${timeoutSec ?? '?'} s, so it was denied. ${DO_NOT_RETRY}`;
    case 'interrupted':
      return `BLOCKED: The approval request for ${what} was interrupted, so it was denied. ${DO_NOT_RETRY}`;
    case 'no_frontend':
      return (
        `BLOCKED: ${what[0]!.toUpperCase()}${what.slice(1)} needs the user's approval, but no one who could ` +
        `approve it is here, so it was denied (the user did not deny it). ${hint} ${NO_APPROVER_TELL}`
      );
    case 'floor':
      return (
        `REFUSED: ${what} is on the list of catastrophic commands that Hermes never runs, in any approval mode ` +
        '(not with --yolo, not with an allowlist entry, not for a cron job). Do not run it again, and do not try ' +
        'to get the same effect another way. If the user really wants this, tell them to run it themselves in ' +
        'their own terminal.'
      );
  }
}

/** The refusal of a command with floor hits (step 0 of the file comment). */
export function refuseFloor(floor: readonly RuleHit[]): Denied {
  const description = [...new Set(floor.map((h) => h.description))].join('; ');
  return {
    allowed: false,
    reason: 'floor',
    message: denialMessage('floor', description, undefined, 'this command'),
  };
}

/** The descriptions of the rule hits, each once, joined by `; `. */
export function describeMatches(matches: DangerousMatch[]): string {
  return [...new Set(matches.map((m) => m.description))].join('; ');
}

/** The description shown to the user, with the smart check's verdict and reason appended. */
export function describeWithSmart(description: string, a: SmartAssessment | undefined): string {
  if (!a) return description;
  const what = a.failed ? 'no verdict' : a.verdict === 'deny' ? 'judged dangerous' : 'unsure';
  return `${description} — smart check: ${what} (${a.reason})`;
}
