/**
 * Running the sub-agents of `delegate_task` (behaviour of hermes-agent's
 * `tools/delegate_tool.py`). A sub-agent is an `Agent` with a fresh in-memory history, a focused
 * system prompt built from its goal and context, a subset of the parent's tools (never
 * the tools marked `forSubagents: false`, and no clarify callback), an iteration budget (`agent.max_turns` of its
 * config copy) and optionally another model. It is stored as a child session (source `subagent`,
 * `parent_session_id` = the parent's session) ended with its final status.
 *
 * Its events reach the parent's event stream as `subagent.start` / `subagent.progress` /
 * `subagent.complete`; only its final answer returns to the parent's model (the tool result).
 * The tool call's signal interrupts it. Dangerous commands are checked with the parent's approval
 * guard as it is at each check (a stricter setting given mid-turn applies at once; `session`
 * answers are the session's) and asked through its callback (the user sees and answers them);
 * they are denied where there is none.
 */
import { randomUUID } from 'node:crypto';
import type { ApprovalGuard } from '../approvals/guard.js';
import { contextWindowFor } from '../model/context-windows.js';
import type { AgentEvent, Usage } from '../protocol/events.js';
import { allowedForSubagents } from '../tools/catalog.js';
import type { DelegateCapability, SubagentOutcome, SubagentTask } from '../tools/delegate-types.js';
import { Agent, type AgentOptions, type TranscriptStore } from './agent.js';
import { forkStoreOf } from './compressor.js';

/** What the parent agent hands over for one `delegate_task` call. */
export interface DelegationParent {
  /** The parent agent's options (tools, model, store, config, approvals …). */
  options: AgentOptions;
  /** The parent's current session id (the sub-agents' `parent_session_id`). */
  sessionId: string;
  /** `tool_id` of the `delegate_task` call (`parent_tool_id` of the events). */
  toolId: string;
  /** Emits an event on the parent's stream. */
  emit(event: AgentEvent): void;
  /**
   * The parent's approval guard as it is now (it is rebuilt when the session's approval settings
   * get stricter mid-turn): the sub-agents check their commands with it.
   */
  guard: () => ApprovalGuard;
}

/** Longest text of one `subagent.progress` event, chars. */
export const PROGRESS_TEXT_CHARS = 300;

const discardStore: TranscriptStore = { appendMessage: () => 0, updateMessage: () => {}, addUsage: () => {} };

/** The system prompt of a sub-agent. */
export function subagentSystemPrompt(task: Pick<SubagentTask, 'goal' | 'context'>, cwd: string): string {
  return [
    'You are a sub-agent: another AI agent delegated one task to you. Work on it with the tools you ' +
      'have; nobody will answer questions, so decide for yourself and note your assumptions.',
    `\nTASK:\n${task.goal}`,
    ...(task.context?.trim() ? [`\nCONTEXT:\n${task.context.trim()}`] : []),
    `\nWorking directory: ${cwd}`,
    '\nWhen you are done, reply with a concise report — it is the only part of your work the ' +
      'delegating agent will see: what you did, what you found (exact paths, values, errors), which ' +
      'files you created or changed, and what is unresolved.',
  ].join('\n');
}

/**
 * The `delegate` capability of one tool call of `parent` (set as `AgentOptions.delegation` by
 * `openAgentSession`). Available tools are the parent's minus the tools marked `forSubagents: false`.
 */
export function subagentDelegation(parent: DelegationParent): DelegateCapability {
  const { config, tools } = parent.options;
  return {
    availableTools: tools.filter(allowedForSubagents).map((t) => t.name),
    maxParallel: config.delegation.max_parallel,
    maxIterations: config.delegation.max_iterations,
    run: (task, signal) => runSubagent(parent, task, signal),
  };
}

function clip(text: string): string {
  const t = text.trim();
  return t.length > PROGRESS_TEXT_CHARS ? `${t.slice(0, PROGRESS_TEXT_CHARS - 3)}...` : t;
}

/** Runs one sub-agent to its end. Never rejects. */
export async function runSubagent(
  parent: DelegationParent,
  task: SubagentTask,
  signal: AbortSignal,
): Promise<SubagentOutcome> {
  const o = parent.options;
  const started = performance.now();
  const modelId = task.model ?? o.config.delegation.model ?? o.modelId;
  const systemPrompt = subagentSystemPrompt(task, o.cwd);
  const fork = forkStoreOf(o.store);
  const base = { parent_tool_id: parent.toolId };
  let id = `subagent-${randomUUID()}`;
  let store = discardStore;
  /** Tells the parent the sub-agent ended (`subagent.complete`) and returns its outcome. */
  const finish = (
    status: SubagentOutcome['status'],
    summary: string,
    error?: string,
    usage?: Usage,
  ): SubagentOutcome => {
    const durationMs = performance.now() - started;
    parent.emit({
      type: 'subagent.complete',
      payload: {
        ...base,
        subagent_id: id,
        task_index: task.index,
        status,
        summary,
        duration_ms: Math.round(durationMs),
        ...(usage ? { usage } : {}),
        ...(error ? { error } : {}),
      },
    });
    return { subagentId: id, status, summary, ...(error ? { error } : {}), durationMs };
  };
  const fail = (message: string): SubagentOutcome => finish('error', '', message);
  if (fork) {
    try {
      const parentRecord = fork.getSession(parent.sessionId);
      id = fork.createSession({
        source: 'subagent',
        parentSessionId: parent.sessionId,
        model: modelId ?? parentRecord?.model ?? null,
        cwd: o.cwd,
      }).id;
      fork.appendMessages(id, [{ role: 'system', content: systemPrompt }]);
      store = o.store;
    } catch (err) {
      return fail(`could not store the sub-agent's session: ${(err as Error).message}`);
    }
  }

  const toolNames = new Map<string, string>();
  const progress = (p: {
    kind: 'tool.start' | 'tool.complete' | 'message' | 'error';
    text: string;
    tool?: string;
    ok?: boolean;
  }): void =>
    parent.emit({
      type: 'subagent.progress',
      payload: { ...base, subagent_id: id, ...p, text: clip(p.text) },
    });
  const forward = (e: AgentEvent): void => {
    if (e.type === 'tool.start') {
      toolNames.set(e.payload.tool_id, e.payload.name);
      progress({ kind: 'tool.start', tool: e.payload.name, text: e.payload.summary || e.payload.name });
    } else if (e.type === 'tool.complete') {
      const tool = toolNames.get(e.payload.tool_id);
      progress({
        kind: 'tool.complete',
        ...(tool ? { tool } : {}),
        ok: e.payload.ok,
        text: e.payload.summary,
      });
    } else if (e.type === 'message.complete' && e.payload.status === 'complete' && e.payload.text.trim()) {
      progress({ kind: 'message', text: e.payload.text });
    } else if (e.type === 'error') {
      progress({ kind: 'error', text: e.payload.message });
    }
  };

  let agent: Agent;
  try {
    agent = new Agent({
      home: o.home,
      config: { ...o.config, agent: { ...o.config.agent, max_turns: task.maxIterations } },
      secrets: o.secrets,
      sessionId: id,
      cwd: o.cwd,
      store,
      model: o.model,
      tools: o.tools.filter((t) => task.tools.includes(t.name) && allowedForSubagents(t)),
      systemPrompt,
      contextWindow: modelId
        ? contextWindowFor(modelId, o.config)
        : (o.contextWindow ?? contextWindowFor(o.model.defaultModel, o.config)),
      onEvent: forward,
      ...(modelId ? { modelId } : {}),
      ...(o.approvalMode ? { approvalMode: o.approvalMode } : {}),
      ...(o.onApproval ? { onApproval: o.onApproval } : {}),
      // its commands are judged by the session's approval settings as they are at each check
      sharedGuard: parent.guard,
      // a sub-agent's commands run under its parent's sandbox lane
      ...(o.sandboxLane ? { sandboxLane: o.sandboxLane } : {}),
    });
  } catch (err) {
    return fail((err as Error).message);
  }

  parent.emit({
    type: 'subagent.start',
    payload: {
      ...base,
      subagent_id: id,
      task_index: task.index,
      goal: task.goal,
      tools: [...task.tools],
      ...(modelId ? { model: modelId } : {}),
      max_iterations: task.maxIterations,
    },
  });
  let status: string;
  let summary = '';
  let error: string | undefined;
  let usage: Usage | undefined;
  try {
    const r = await agent.runTurn(task.goal, signal);
    status = r.status;
    summary = r.text;
    usage = r.usage;
    if (r.error) error = r.error;
  } catch (err) {
    status = 'error';
    error = (err as Error).message;
  }
  if (fork && store !== discardStore) {
    try {
      fork.endSession(agent.sessionId, status);
    } catch {
      /* bookkeeping only */
    }
  }
  return finish(status, summary, error, usage);
}
