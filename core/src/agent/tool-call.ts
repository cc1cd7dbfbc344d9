/**
 * Running one tool call of a model response: `tool.start`, the handler through
 * the registry (argument validation, capped result), `tool.complete` with the duration (the
 * tool's own time: what it waited for an approval is left out). Unknown
 * tools and interrupted turns become error results the model can read, never exceptions. A call
 * not run because the turn was interrupted is emitted too (`tool.start`, then `tool.complete`
 * carrying the stored "not run" text), since every stored message is also emitted live.
 */
import { randomUUID } from 'node:crypto';
import type { ToolCall } from '../model/types.js';
import type { AgentEvent } from '../protocol/events.js';
import { capDetail } from '../protocol/limits.js';
import { runTool } from '../tools/registry.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../tools/types.js';
import { INTERRUPTED_TOOL_RESULT } from './history.js';

/** What `runToolCall` needs from the agent. */
export interface ToolCallDeps {
  tools: ReadonlyMap<string, ToolDefinition>;
  emit(event: AgentEvent): void;
  /** The context for this call's handler (`toolId` names its progress events). */
  context(toolId: string): ToolContext;
  signal: AbortSignal;
  /**
   * Time call `toolId` spent in the approval guard (asking the user included), ms; read once when
   * the call ends and left out of its `duration_ms`, which is the tool's own running time.
   */
  approvalWaitMs?(toolId: string): number;
}

/** Parses a call's JSON arguments for events; anything unusable becomes `{}`. */
export function parseArgs(raw: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(raw || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function safeSummary(tool: ToolDefinition, args: Record<string, unknown>): string {
  try {
    return tool.summarize?.(args) ?? '';
  } catch {
    return '';
  }
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/** Runs one call and emits its start/complete events. Never rejects. */
export async function runToolCall(call: ToolCall, deps: ToolCallDeps): Promise<ToolResult> {
  const name = call.function.name;
  const args = parseArgs(call.function.arguments);
  const tool = deps.tools.get(name);
  const toolId = call.id || randomUUID();
  if (deps.signal.aborted) {
    // A call the interrupt kept from running still gets a stored result, so it is emitted live
    // too (start and complete): live clients and re-attached ones show the same transcript.
    const result: ToolResult = { ok: false, content: INTERRUPTED_TOOL_RESULT, summary: 'interrupted' };
    deps.emit({ type: 'tool.start', payload: { tool_id: toolId, name, args } });
    deps.emit({
      type: 'tool.complete',
      payload: {
        tool_id: toolId,
        ok: false,
        summary: 'interrupted',
        duration_ms: 0,
        detail: capDetail(result.content),
      },
    });
    return result;
  }
  deps.emit({
    type: 'tool.start',
    payload: {
      tool_id: toolId,
      name,
      args,
      ...(tool?.summarize ? { summary: safeSummary(tool, args) } : {}),
    },
  });
  const started = performance.now();
  let result: ToolResult;
  if (!tool) {
    const known = [...deps.tools.keys()].join(', ');
    result = {
      ok: false,
      content: `Unknown tool "${name}". Available tools: ${known}.`,
      summary: 'unknown tool',
    };
  } else {
    result = await runTool(tool, call.function.arguments, deps.context(toolId));
  }
  deps.emit({
    type: 'tool.complete',
    payload: {
      tool_id: toolId,
      ok: result.ok,
      summary: result.summary ?? firstLine(result.content),
      duration_ms: Math.round(
        Math.max(0, performance.now() - started - (deps.approvalWaitMs?.(toolId) ?? 0)),
      ),
      detail: capDetail(result.content),
      ...(result.blocked ? { blocked: { reason: result.blocked.reason } } : {}),
    },
  });
  return result;
}
