/**
 * Hermes approval choices as ACP permission options, and the editor's answer back as a choice.
 * Fail closed: a cancelled request, or an option that was not offered, is `deny`.
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
