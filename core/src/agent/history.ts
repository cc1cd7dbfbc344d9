/**
 * Converting stored messages into the Chat Completions history, and keeping that history valid
 * (every assistant tool call answered by exactly one tool message).
 */
import type { ChatMessage, ToolCall } from '../model/types.js';
import { GUIDANCE_STATUS, type MessageRecord } from '../state/types.js';

/** Result text given to tool calls that never ran because the turn was interrupted. */
export const INTERRUPTED_TOOL_RESULT = '[Tool call not run: the user interrupted the turn.]';

/** First line of a guidance message as the model sees it (the user's text follows). */
export const GUIDANCE_PREFIX =
  '[Guidance from the user, sent while you were working. It is not a new task: take it into account and continue.]';

/**
 * The content the model gets for guidance text given during a turn (`/steer`): the text after
 * `GUIDANCE_PREFIX`. Stored without the prefix; added here and when history is rebuilt.
 */
export function guidanceForModel(text: string): string {
  return `${GUIDANCE_PREFIX}\n${text}`;
}

/**
 * Turns stored records into the system prompt and the message history.
 * @returns `system` from the first system record (undefined when none), `history` without it.
 */
export function historyFromRecords(records: readonly MessageRecord[]): {
  system?: string;
  history: ChatMessage[];
} {
  let system: string | undefined;
  const history: ChatMessage[] = [];
  for (const r of records) {
    if (r.role === 'system') {
      system ??= r.content ?? '';
    } else if (r.role === 'user') {
      const text = r.content ?? '';
      history.push({ role: 'user', content: r.status === GUIDANCE_STATUS ? guidanceForModel(text) : text });
    } else if (r.role === 'assistant') {
      let toolCalls: ToolCall[] | undefined;
      if (r.tool_calls) {
        try {
          toolCalls = JSON.parse(r.tool_calls) as ToolCall[];
        } catch {
          toolCalls = undefined;
        }
      }
      history.push({
        role: 'assistant',
        content: r.content ?? '',
        ...(toolCalls?.length ? { tool_calls: toolCalls } : {}),
      });
    } else if (r.role === 'tool') {
      history.push({
        role: 'tool',
        content: r.content ?? '',
        tool_call_id: r.tool_call_id ?? '',
        name: r.tool_name ?? undefined,
      });
    }
  }
  return { system, history: repairToolPairs(history) };
}

/**
 * Makes a history valid for the API: answers unanswered tool calls with `INTERRUPTED_TOOL_RESULT`
 * and drops tool messages that answer no preceding call. Returns a new array.
 */
export function repairToolPairs(history: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let pending = new Map<string, string>();
  const flush = (): void => {
    for (const [id, name] of pending)
      out.push({ role: 'tool', content: INTERRUPTED_TOOL_RESULT, tool_call_id: id, name });
    pending = new Map();
  };
  for (const m of history) {
    if (m.role === 'tool') {
      if (pending.has(m.tool_call_id)) {
        pending.delete(m.tool_call_id);
        out.push(m);
      }
      continue;
    }
    flush();
    out.push(m);
    if (m.role === 'assistant' && m.tool_calls) {
      for (const c of m.tool_calls) pending.set(c.id, c.function.name);
    }
  }
  flush();
  return out;
}
