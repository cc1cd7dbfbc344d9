/**
 * How a tool call's approval check runs in the agent loop: a shell command (`ctx.checkCommand`)
 * or an `execute_code` script (`ctx.checkScript`) goes to the session's approval guard, while the
 * frontends are told that the turn waits for approval (`status.update`), what the smart check
 * judged (`approval.smart`), and the answer is kept for the stored tool result's outcome.
 */
import {
  createApprovalGuard,
  CRON_NO_APPROVER_HINT,
  type ApprovalGuard,
  type ScriptApproval,
} from '../approvals/guard.js';
import { smartCheckFor, type SmartCheckCaller } from '../approvals/smart.js';
import type { ApprovalVerdict, EditApproval, SmartAssessment } from '../approvals/types.js';
import type { AgentEvent, Usage } from '../protocol/events.js';
import type { AgentOptions } from './agent-types.js';
import type { ToolOutcomes } from './tool-outcomes.js';

/**
 * The approval guard of an agent with options `opts`: its config's approvals (or the
 * `approvalMode` override), its approval callback, the smart check through its model. A cron
 * session's denials for want of an approver name the cron setting that allows them.
 * @param sessionApprovals the entries approved with `session` so far (kept across rebuilds).
 * @param addUsage told the smart check's token usage.
 */
export function sessionGuard(
  opts: AgentOptions,
  sessionApprovals: string[],
  addUsage: (usage: Usage, who?: SmartCheckCaller) => void,
): ApprovalGuard {
  return createApprovalGuard({
    config: opts.config,
    home: opts.home,
    sessionId: opts.sessionId,
    sessionApprovals,
    cwd: opts.cwd,
    ...(opts.approvalMode ? { mode: opts.approvalMode } : {}),
    ...(opts.onApproval ? { callback: opts.onApproval } : {}),
    smart: smartCheckFor(opts.config, opts.model, opts.modelId, addUsage),
    ...(opts.sandboxLane === 'cron' ? { noApproverHint: CRON_NO_APPROVER_HINT } : {}),
    // an `always` that could not be written is not silent: the user learns it holds for this
    // session only (the guard keeps it there)
    onError: (err) =>
      opts.onEvent?.({
        type: 'error',
        payload: { message: alwaysNotSavedText(err), kind: 'notice' },
      }),
  });
}

/** What the user is told when an `always` answer could not be written to `config.yaml`. */
export function alwaysNotSavedText(err: unknown): string {
  const why = err instanceof Error ? err.message : String(err);
  return (
    `The approval was not saved to config.yaml (${why}): it applies to this session only. ` +
    'Fix the file (hermes config check) and answer "always" again to keep it.'
  );
}

/** What is checked: a shell command, a script with its language, or a command to run outside the sandbox. */
export type GuardSubject =
  | string
  | ScriptApproval
  | { outsideSandbox: string }
  | { sandboxFallback: string }
  | { edit: EditApproval; tool: string };

/** The agent's parts a check uses. */
export interface GuardCheckDeps {
  guard: ApprovalGuard;
  outcomes: ToolOutcomes;
  /** Emits an event of the turn (never throws). */
  emit(event: AgentEvent): void;
}

/**
 * Checks `what` for tool call `toolId` with the guard (see the file comment).
 * @param signal the turn's signal: aborting it while the user is asked denies.
 * @param cwd the folder a command runs in (default: the guard's, the session's folder).
 * @returns the guard's verdict; never rejects (the guard fails closed).
 */
export function checkWithGuard(
  deps: GuardCheckDeps,
  toolId: string,
  signal: AbortSignal,
  what: GuardSubject,
  cwd?: string,
): Promise<ApprovalVerdict> {
  deps.emit({ type: 'status.update', payload: { state: 'waiting_approval' } });
  const onSmart = (a: SmartAssessment): void => {
    deps.outcomes.noteSmart(toolId, a);
    deps.emit({
      type: 'approval.smart',
      payload: {
        tool_id: toolId,
        verdict: a.verdict,
        reason: a.reason,
        ...(a.model ? { model: a.model } : {}),
        ...(a.failed ? { failed: true } : {}),
      },
    });
  };
  const verdict =
    typeof what === 'string'
      ? deps.guard.check(what, signal, onSmart, cwd)
      : 'outsideSandbox' in what
        ? deps.guard.checkOutsideSandbox(what.outsideSandbox, signal, cwd)
        : 'sandboxFallback' in what
          ? deps.guard.askSandboxFallback(what.sandboxFallback, signal)
          : 'edit' in what
            ? deps.guard.askEdit(what.tool, what.edit, signal)
            : deps.guard.checkScript(what, signal, onSmart);
  return verdict
    .then((v) => {
      if (v.asked) deps.outcomes.noteApproval(toolId, v.asked);
      return v;
    })
    .finally(() => deps.emit({ type: 'status.update', payload: { state: 'tools' } }));
}
