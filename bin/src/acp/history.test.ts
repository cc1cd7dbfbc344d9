import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '@hermes/core/protocol';
import { EventTranslator } from './event-map.js';
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
    const out = historyUpdates(messages, new EventTranslator('/w'));
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
      new EventTranslator('/w'),
    );
    expect(out).toMatchObject([
      { sessionUpdate: 'tool_call', toolCallId: 'c', kind: 'execute', rawInput: {} },
      { sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'failed' },
    ]);
  });

  it('shows a running turn from its in-flight part: the stored copy of the reply is skipped, the prompt not repeated', () => {
    const live = new EventTranslator('/w');
    const out = historyUpdates(
      [
        { id: 1, role: 'user', content: 'go', timestamp: 1 },
        { id: 2, role: 'assistant', content: 'partial rep', timestamp: 2, status: 'streaming' },
      ],
      live,
      {
        prompt: 'go',
        text: 'partial reply so far',
        reasoning: '',
        tools: [{ tool_id: 't9', name: 'terminal', args: { command: 'make' }, started_at: 3 }],
        completed_tools: [{ tool_id: 't8', name: 'read_file', ok: true, summary: 'a.ts', duration_ms: 2 }],
        started_at: 1,
      },
    );
    expect(out.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'tool_call',
      'tool_call_update',
      'agent_message_chunk',
      'tool_call',
    ]);
    expect(out[3]).toMatchObject({ content: { text: 'partial reply so far' } });
    expect(out[4]).toMatchObject({ toolCallId: 't9', kind: 'execute', status: 'in_progress' });
    expect(live.running.get('t9')).toEqual({ name: 'terminal', args: { command: 'make' } });
  });
});

describe('historyUpdates with attachments', () => {
  it('shows a prompt’s images as chips after its text', () => {
    const out = historyUpdates(
      [
        {
          id: 1,
          role: 'user',
          content: 'what is this?',
          timestamp: 1,
          attachments: [{ kind: 'image', name: 'dot.png', mime: 'image/png', bytes: 69 }],
        },
      ],
      new EventTranslator('/w'),
    );
    expect(out).toEqual([
      {
        sessionUpdate: 'user_message_chunk',
        content: { type: 'text', text: 'what is this?\n[image dot.png · 69 B]' },
      },
    ]);
  });
});
