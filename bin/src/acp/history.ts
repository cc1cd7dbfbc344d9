/**
 * A stored conversation replayed as ACP `session/update`s (`session/load`): user prompts,
 * replies, and each tool call with its outcome, in order.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { StoredMessage } from '@hermes/core/protocol';
import { EventTranslator, text, userText } from './event-map.js';
import { planFromTodo } from './tool-map.js';

/** The updates that show `messages` (oldest first) as the editor would have seen them live. */
export function historyUpdates(messages: readonly StoredMessage[], cwd: string): SessionUpdate[] {
  const t = new EventTranslator(cwd);
  const names = new Map<string, string>();
  const out: SessionUpdate[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      if (m.content) out.push(userText(m.content));
    } else if (m.role === 'assistant') {
      if (m.content) out.push({ sessionUpdate: 'agent_message_chunk', content: text(m.content) });
      for (const call of m.tool_calls ?? []) {
        names.set(call.id, call.name);
        out.push(t.toolCall(call.id, call.name, parseArgs(call.arguments), undefined, 'in_progress'));
      }
    } else if (m.role === 'tool' && m.tool_call_id) {
      const name = m.tool_name ?? names.get(m.tool_call_id) ?? 'tool';
      const ok = m.outcome?.ok ?? !(m.content ?? '').startsWith('Error');
      out.push({
        sessionUpdate: 'tool_call_update',
        toolCallId: m.tool_call_id,
        status: ok ? 'completed' : 'failed',
      });
      if (name === 'todo' && ok) {
        const entries = planFromTodo(m.content ?? undefined);
        if (entries) out.push({ sessionUpdate: 'plan', entries });
      }
    }
  }
  return out;
}

/** A stored call's JSON arguments as an object (`{}` when they are not one). */
function parseArgs(json: string): Record<string, unknown> {
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
