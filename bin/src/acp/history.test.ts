import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '@hermes/core/protocol';
import { historyUpdates } from './history.js';

describe('historyUpdates', () => {
  it('replays prompts, replies and tool calls with their outcome, in order', () => {
    const messages: StoredMessage[] = [
      { id: 1, role: 'user', content: 'fix a.txt', timestamp: 1 },
      {
        id: 2,
        role: 'assistant',
        content: 'On it.',
        timestamp: 2,
        tool_calls: [
          { id: 'c1', name: 'patch', arguments: '{"path":"a.txt","old_string":"x","new_string":"y"}' },
        ],
      },
      {
        id: 3,
        role: 'tool',
        content: 'Patched',
        tool_call_id: 'c1',
        tool_name: 'patch',
        timestamp: 3,
        outcome: { ok: true },
      },
      { id: 4, role: 'assistant', content: 'Done.', timestamp: 4 },
    ];
    const out = historyUpdates(messages, '/w');
    expect(out.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_message_chunk',
      'tool_call',
      'tool_call_update',
      'agent_message_chunk',
    ]);
    expect(out[2]).toMatchObject({
      toolCallId: 'c1',
      kind: 'edit',
      content: [{ type: 'diff', path: '/w/a.txt' }],
    });
    expect(out[3]).toMatchObject({ toolCallId: 'c1', status: 'completed' });
  });

  it('marks a failed call failed and survives arguments that are not JSON', () => {
    const out = historyUpdates(
      [
        {
          id: 1,
          role: 'assistant',
          content: null,
          timestamp: 1,
          tool_calls: [{ id: 'c', name: 'terminal', arguments: '{oops' }],
        },
        { id: 2, role: 'tool', content: 'BLOCKED', tool_call_id: 'c', timestamp: 2, outcome: { ok: false } },
      ],
      '/w',
    );
    expect(out).toMatchObject([
      { sessionUpdate: 'tool_call', toolCallId: 'c', kind: 'execute', rawInput: {} },
      { sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'failed' },
    ]);
  });
});
