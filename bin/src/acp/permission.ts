/**
 * Hermes approval choices and clarify questions as ACP permission options, and the editor's answer
 * back. Fail closed: a cancelled request, or an option that was not offered, is `deny` (an
 * approval) or no answer (a clarify question).
 */
import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import type { ApprovalChoice } from '@hermes/core/protocol';

const OPTIONS: Readonly<Record<ApprovalChoice, Omit<PermissionOption, 'optionId'>>> = {
  once: { name: 'Allow once', kind: 'allow_once' },
  session: { name: 'Allow for this session', kind: 'allow_always' },
  always: { name: 'Always allow (saved in config.yaml)', kind: 'allow_always' },
  deny: { name: 'Reject', kind: 'reject_once' },
};

/** The options offered for `choices` (in their order); the option id is the choice. */
export function permissionOptions(choices: readonly ApprovalChoice[]): PermissionOption[] {
  return choices.filter((c) => c in OPTIONS).map((c) => ({ optionId: c, ...OPTIONS[c] }));
}

/** The approval choice of the editor's answer: the selected option when offered, else `deny`. */
export function choiceOf(
  outcome: RequestPermissionOutcome,
  offered: readonly ApprovalChoice[],
): ApprovalChoice {
  if (outcome.outcome !== 'selected') return 'deny';
  const id = outcome.optionId as ApprovalChoice;
  return offered.includes(id) ? id : 'deny';
}

/** Option id of skipping a clarify question. */
export const CLARIFY_SKIP = 'skip';

/** The options of a clarify question: one per suggested answer, then skipping it. */
export function clarifyOptions(choices: readonly string[]): PermissionOption[] {
  return [
    ...choices.map((c, i): PermissionOption => ({ optionId: `choice-${i}`, name: c, kind: 'allow_once' })),
    { optionId: CLARIFY_SKIP, name: 'Skip (answer in your next message)', kind: 'reject_once' },
  ];
}

/** The clarify answer of the editor's choice: the suggested answer picked, else null (not answered). */
export function clarifyAnswer(outcome: RequestPermissionOutcome, choices: readonly string[]): string | null {
  if (outcome.outcome !== 'selected') return null;
  const m = /^choice-(\d+)$/.exec(outcome.optionId);
  return m ? (choices[Number(m[1])] ?? null) : null;
}
