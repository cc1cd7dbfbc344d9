/** Stored messages (SessionDB records) in their wire shape (`StoredMessage`). */
import { attachmentInfos } from '@hermes/core/images';
import type { MessageOutcome, StoredMessage } from '@hermes/core/protocol';
import type { MessageRecord } from '@hermes/core/state';

/** Converts a stored record to the wire shape (system messages are dropped by callers). */
export function toStoredMessage(r: MessageRecord): StoredMessage {
  let toolCalls: StoredMessage['tool_calls'];
  if (r.tool_calls) {
    try {
      const parsed = JSON.parse(r.tool_calls) as Array<{
        id: string;
        function: { name: string; arguments: string };
      }>;
      toolCalls = parsed.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    } catch {
      toolCalls = undefined;
    }
  }
  return {
    id: r.id,
    role: r.role as StoredMessage['role'],
    content: r.content,
    ...(toolCalls ? { tool_calls: toolCalls } : {}),
    tool_call_id: r.tool_call_id,
    tool_name: r.tool_name,
    timestamp: r.timestamp,
    status: r.status,
    ...outcomeOf(r.outcome),
    ...attachmentsOf(r.attachments),
  };
}

function attachmentsOf(json: string | null | undefined): { attachments?: StoredMessage['attachments'] } {
  const list = attachmentInfos(json);
  return list.length ? { attachments: list } : {};
}

function outcomeOf(json: string | null | undefined): { outcome?: MessageOutcome } {
  if (!json) return {};
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === 'object' && !Array.isArray(v) ? { outcome: v as MessageOutcome } : {};
  } catch {
    return {};
  }
}
