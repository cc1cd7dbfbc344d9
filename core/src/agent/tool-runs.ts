/**
 * The tool calls of one model response: scheduled (read-only calls together, the others one at
 * a time; tool-scheduler.ts), each run with its tool context — approvals through the session's
 * guard, the session's sandbox and its fallback question, checkpoints before file changes, the
 * task list, background processes, editor files, delegation — and each result stored and added
 * to the history in call order with the outcome the run recorded.
 */
import { denialMessage, OUTSIDE_SANDBOX_DESCRIPTION, type ApprovalGuard } from '../approvals/guard.js';
import type { EditApproval } from '../approvals/types.js';
import type { CheckpointTracker } from '../checkpoints/tracker.js';
import type { ChatMessage, ToolCall } from '../model/types.js';
import type { AgentEvent } from '../protocol/events.js';
import type { NewMessage } from '../state/types.js';
import { createSessionSandbox, type SessionSandbox } from '../tools/sandbox/command-sandbox.js';
import type { TodoItem, ToolContext, ToolDefinition, ToolResult } from '../tools/types.js';
import type { AgentOptions } from './agent-types.js';
import { checkWithGuard, type GuardSubject } from './guard-check.js';
import { runToolCall } from './tool-call.js';
import { ToolOutcomes } from './tool-outcomes.js';
import { scheduleToolCalls } from './tool-scheduler.js';

/** The agent's parts the tool runs read; read at each use, since settings change between turns. */
export interface ToolRunHost {
  /** The agent's current options (its config, secrets, cwd, callbacks). */
  options(): AgentOptions;
  /** The session the agent writes to now. */
  sessionId(): string;
  /** The session's approval guard now. */
  guard(): ApprovalGuard;
  /** The tools of the current turn, all and by name. */
  tools(): ToolDefinition[];
  toolsByName(): ReadonlyMap<string, ToolDefinition>;
  /** The session's task list (`todo` tool). */
  todos: TodoItem[];
  /** Snapshots before a turn's first file change per directory. */
  checkpoints: CheckpointTracker;
  /** Emits an event of the turn (never throws). */
  emit(event: AgentEvent): void;
  /** Stores a message in the session; returns its id. */
  persist(msg: NewMessage): number;
  /** Appends a message to the history the model sees. */
  pushHistory(msg: ChatMessage): void;
}

/** Runs the tool calls of an agent's turns (see the file comment). */
export class ToolRuns {
  /** Outcomes of running tool calls, stored with their results. */
  private readonly outcomes = new ToolOutcomes();
  /** The session's sandbox (`AgentOptions.sandboxLane`); absent: none. */
  private readonly sandbox: SessionSandbox | undefined;
  /** The tool call currently asking for the sandbox fallback (for the approval's events). */
  private fallbackToolId = '';

  /** @param host the agent's parts, read live (see `ToolRunHost`). */
  constructor(private readonly host: ToolRunHost) {
    const opts = host.options();
    this.sandbox = opts.sandboxLane
      ? createSessionSandbox({
          lane: opts.sandboxLane,
          home: opts.home,
          sessionId: opts.sessionId,
          workspace: opts.cwd,
          // the question goes through the approval path of the call that needs the sandbox
          askFallback: (question, signal) => this.askSandboxFallback(question, signal),
        })
      : undefined;
  }

  private askSandboxFallback(question: string, signal: AbortSignal): Promise<boolean> {
    return this.checkWithGuard(this.fallbackToolId, signal, { sandboxFallback: question }).then(
      (v) => v.allowed,
    );
  }

  /**
   * Runs `calls` (one response's tool calls) and stores each result in call order, with its
   * outcome, in the session and the history. Resolves when all have finished or were stopped by
   * `signal`; never rejects (a failing tool gives an error result).
   */
  async run(calls: ToolCall[], signal: AbortSignal): Promise<void> {
    const isReadOnly = (c: ToolCall): boolean =>
      this.host.toolsByName().get(c.function.name)?.readOnly ?? false;
    await scheduleToolCalls(
      calls,
      isReadOnly,
      (call) => this.runOne(call, signal),
      (result, index) => {
        const call = calls[index]!;
        this.host.persist({
          role: 'tool',
          content: result.content,
          tool_call_id: call.id,
          tool_name: call.function.name,
          outcome: this.outcomes.take(call.id),
        });
        this.host.pushHistory({
          role: 'tool',
          content: result.content,
          tool_call_id: call.id,
          name: call.function.name,
        });
      },
    );
  }

  /** `checkWithGuard` (guard-check.ts) with the agent's guard, these outcomes and its events. */
  /** Time each running call spent in the guard (waiting for an approval included), ms. */
  private readonly guardMs = new Map<string, number>();

  private async checkWithGuard(toolId: string, signal: AbortSignal, what: GuardSubject, cwd?: string) {
    const started = performance.now();
    try {
      return await checkWithGuard(
        { guard: this.host.guard(), outcomes: this.outcomes, emit: (e) => this.host.emit(e) },
        toolId,
        signal,
        what,
        cwd,
      );
    } finally {
      this.guardMs.set(toolId, (this.guardMs.get(toolId) ?? 0) + performance.now() - started);
    }
  }

  /**
   * The sandbox members of a tool call's context: `sandbox` under this turn's config, and
   * `checkOutsideSandbox` — a cron run never leaves its sandbox (nobody could approve it).
   */
  private sandboxContext(toolId: string, signal: AbortSignal): Partial<ToolContext> {
    if (!this.sandbox) return {};
    const sandbox = this.sandbox.forConfig(this.host.options().config);
    const ready = sandbox.ready.bind(sandbox);
    return {
      sandbox: {
        get mode() {
          return sandbox.mode;
        },
        wrap: sandbox.wrap,
        explain: sandbox.explain,
        ready: (s) => {
          this.fallbackToolId = toolId;
          return ready(s);
        },
      },
      checkOutsideSandbox:
        this.sandbox.lane === 'cron'
          ? () =>
              Promise.resolve({
                allowed: false,
                reason: 'no_frontend',
                message: denialMessage(
                  'no_frontend',
                  OUTSIDE_SANDBOX_DESCRIPTION,
                  undefined,
                  'running a command outside the sandbox',
                ),
              })
          : (command, cwd) => this.checkWithGuard(toolId, signal, { outsideSandbox: command }, cwd),
    };
  }

  private runOne(call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
    const { host } = this;
    return runToolCall(call, {
      tools: host.toolsByName(),
      emit: (e) => {
        this.outcomes.noteEvent(e);
        host.emit(e);
      },
      signal,
      context: (toolId) => this.context(toolId, signal),
      approvalWaitMs: (toolId) => {
        const ms = this.guardMs.get(toolId) ?? 0;
        this.guardMs.delete(toolId);
        return ms;
      },
    });
  }

  /** The context of tool call `toolId`, under the agent's settings when the call starts. */
  private context(toolId: string, signal: AbortSignal): ToolContext {
    const { host } = this;
    const opts = host.options();
    const sessionId = host.sessionId();
    return {
      home: opts.home,
      config: opts.config,
      secrets: opts.secrets,
      sessionId,
      cwd: opts.cwd,
      signal,
      checkCommand: (command, cwd) => this.checkWithGuard(toolId, signal, command, cwd),
      checkScript: (script) => this.checkWithGuard(toolId, signal, script),
      ...this.sandboxContext(toolId, signal),
      ...(opts.onClarify ? { clarify: opts.onClarify } : {}),
      todos: host.todos,
      progress: (text) => host.emit({ type: 'tool.progress', payload: { tool_id: toolId, text } }),
      beforeFileChange: (path, info) =>
        host.checkpoints.beforeFileChange(path, host.options().cwd, { ...info, signal }),
      ...(opts.config.approvals.edits === 'ask'
        ? {
            checkEdit: (tool: string, edit: EditApproval) =>
              this.checkWithGuard(toolId, signal, { tool, edit }),
          }
        : {}),
      ...(opts.processes ? { processes: opts.processes } : {}),
      ...(opts.editorFiles ? { editorFiles: opts.editorFiles } : {}),
      ...(opts.delegation
        ? {
            delegate: opts.delegation({
              options: { ...opts, tools: host.tools() },
              sessionId,
              toolId,
              emit: (e) => host.emit(e),
              guard: () => host.guard(),
            }),
          }
        : {}),
    };
  }
}
