/**
 * Emergency history shrinking after a context-overflow error: drops the
 * oldest turns, never splitting a tool call from its result, and leaves a note in their place.
 * The full summarising compressor is a separate component.
 */
import type { ChatMessage } from '../model/types.js';

/**
 * Removes about the older half of `history` at a user-message boundary, keeping at least the last
 * `keepLast` messages. Returns the history unchanged when there is nothing safe to drop.
 */
export function dropOldestTurns(
  history: readonly ChatMessage[],
  keepLast = 4,
): { history: ChatMessage[]; dropped: number } {
  const limit = history.length - keepLast;
  const target = Math.floor(history.length / 2);
  let cut = -1;
  for (let i = 1; i <= limit; i++) {
    if (history[i]!.role === 'user') {
      cut = i;
      if (i >= target) break;
    }
  }
  if (cut <= 0) return { history: [...history], dropped: 0 };
  const note: ChatMessage = {
    role: 'user',
    content: `[Context note: ${cut} earlier messages were removed to fit the model's context window.]`,
  };
  return { history: [note, ...history.slice(cut)], dropped: cut };
}
