/**
 * What frontends showed for each tool call of a turn (its `tool.complete` and the approvals
 * answered while it ran), kept until the call's result is stored, where it becomes the message's
 * `outcome` (protocol `MessageOutcome`): a client reading the history later shows the same lines.
 */
import type { ApprovalAnswer, SmartAssessment } from '../approvals/types.js';
import type { AgentEvent } from '../protocol/events.js';
import type { MessageOutcome } from '../protocol/records.js';

/** Outcomes of the tool calls in flight, by tool id. */
export class ToolOutcomes {
  private readonly byTool = new Map<string, MessageOutcome>();

  /** Records the outcome of a `tool.complete` event (other events are ignored). */
  noteEvent(event: AgentEvent): void {
    if (event.type !== 'tool.complete') return;
    const p = event.payload;
    const o = this.entry(p.tool_id);
    o.ok = p.ok;
    o.summary = p.summary;
    o.duration_ms = p.duration_ms;
    if (p.blocked) o.blocked = { reason: p.blocked.reason };
  }

  /** Records an approval answered while the tool ran. */
  noteApproval(toolId: string, asked: ApprovalAnswer): void {
    const o = this.entry(toolId);
    (o.approvals ??= []).push({ choice: asked.choice, by: asked.by });
  }

  /**
   * Records the smart check's verdict on a command of the tool, when it decided something:
   * `approve` as `{choice: 'once', by: 'smart', reason}`, `deny` as `{choice: 'deny', …}` (the
   * user's answer follows as its own entry). `escalate` is not recorded (the user's answer is).
   */
  noteSmart(toolId: string, a: SmartAssessment): void {
    if (a.verdict === 'escalate') return;
    const o = this.entry(toolId);
    (o.approvals ??= []).push({
      choice: a.verdict === 'approve' ? 'once' : 'deny',
      by: 'smart',
      reason: a.reason,
    });
  }

  /** The stored form (JSON) of a call's outcome, forgotten afterwards; null when none was seen. */
  take(toolId: string): string | null {
    const o = this.byTool.get(toolId);
    this.byTool.delete(toolId);
    return o ? JSON.stringify(o) : null;
  }

  private entry(toolId: string): MessageOutcome {
    let o = this.byTool.get(toolId);
    if (!o) this.byTool.set(toolId, (o = {}));
    return o;
  }
}

/** The stored form (JSON) of a failed reply's outcome. */
export function errorOutcome(message: string): string {
  const o: MessageOutcome = { error: message };
  return JSON.stringify(o);
}
