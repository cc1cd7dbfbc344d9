/**
 * A stored conversation replayed as ACP `session/update`s (`session/load`): user prompts,
 * replies, and each tool call with its outcome, in order — then, when a turn is running, what it
 * has done so far (the same rules as the TUI's history: a reply still being streamed is shown from
 * the in-flight part, not from its periodically stored copy).
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { attachmentLabel } from '@hermes/core/constants';
import type { Inflight, StoredMessage } from '@hermes/core/protocol';
import type { EventTranslator } from './event-map.js';
import { text, userText } from './event-map.js';
import { planFromTodo } from './tool-map.js';

/**
 * The updates that show `messages` (oldest first) and the running turn `inflight` as the editor
 * would have seen them live. The running turn's tools in flight are registered in `live` (whose
 * `tool.complete` events then finish them).
 */
export function historyUpdates(
  messages: readonly StoredMessage[],
  live: EventTranslator,
  inflight: Inflight | null = null,
): SessionUpdate[] {
  const names = new Map<string, string>();
  const out: SessionUpdate[] = [];
  const done = new Set<string>();
  let lastUser: string | undefined;
  for (const m of messages) {
    if (m.role === 'user') {
      lastUser = m.content ?? '';
      // what was attached (images …) follows the prompt as its chips
      const chips = (m.attachments ?? []).map(attachmentLabel).join(' ');
      const shown = [m.content ?? '', chips].filter(Boolean).join('\n');
      if (shown) out.push(userText(shown));
    } else if (m.role === 'assistant') {
      const stillStreaming = m.status === 'streaming' && inflight;
      if (m.content && !stillStreaming)
        out.push({ sessionUpdate: 'agent_message_chunk', content: text(m.content) });
      for (const call of m.tool_calls ?? []) {
        names.set(call.id, call.name);
        out.push(live.toolCall(call.id, call.name, parseArgs(call.arguments), undefined, 'in_progress'));
      }
    } else if (m.role === 'tool' && m.tool_call_id) {
      const name = m.tool_name ?? names.get(m.tool_call_id) ?? 'tool';
      const ok = m.outcome?.ok ?? !(m.content ?? '').startsWith('Error');
      done.add(m.tool_call_id);
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
  if (!inflight) return out;
  if (inflight.prompt && lastUser !== inflight.prompt) out.push(userText(inflight.prompt));
  for (const t of inflight.completed_tools ?? []) {
    if (done.has(t.tool_id)) continue;
    if (!names.has(t.tool_id)) out.push(live.toolCall(t.tool_id, t.name, {}, t.summary, 'in_progress'));
    out.push({
      sessionUpdate: 'tool_call_update',
      toolCallId: t.tool_id,
      status: t.ok ? 'completed' : 'failed',
    });
  }
  if (inflight.reasoning)
    out.push({ sessionUpdate: 'agent_thought_chunk', content: text(inflight.reasoning) });
  if (inflight.text) out.push({ sessionUpdate: 'agent_message_chunk', content: text(inflight.text) });
  for (const t of inflight.tools) {
    live.running.set(t.tool_id, { name: t.name, args: t.args });
    if (!names.has(t.tool_id)) out.push(live.toolCall(t.tool_id, t.name, t.args, t.summary, 'in_progress'));
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
