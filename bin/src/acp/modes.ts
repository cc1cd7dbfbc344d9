/**
 * ACP session modes as the session's approval mode: the editor's mode picker switches how flagged
 * commands are approved in that session (`session.approvals.set`), and a mode set from another
 * client (a TUI attached to the same session) shows in the editor (`current_mode_update`).
 */
import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk';
import type { ApprovalModeName, SessionInfo } from '@hermes/core/protocol';

/** The modes offered, in picker order; ids are the approval modes. */
export const ACP_MODES: readonly SessionMode[] = [
  { id: 'manual', name: 'Ask', description: 'Ask before running a command flagged as dangerous' },
  {
    id: 'smart',
    name: 'Smart',
    description: 'A model judges flagged commands: clearly safe ones run, the rest are asked',
  },
  {
    id: 'off',
    name: 'Yolo',
    description: 'Run flagged commands without asking (the most destructive are still refused)',
  },
];

/** An ACP mode id as an approval mode, or undefined when it is not one of `ACP_MODES`. */
export function approvalModeOf(modeId: string): ApprovalModeName | undefined {
  return ACP_MODES.some((m) => m.id === modeId) ? (modeId as ApprovalModeName) : undefined;
}

/** The mode state of a session (`manual` when the daemon did not say). */
export function modeState(session: Pick<SessionInfo, 'approval_mode'>): SessionModeState {
  return { currentModeId: session.approval_mode ?? 'manual', availableModes: [...ACP_MODES] };
}
