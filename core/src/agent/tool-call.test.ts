import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events.js';
import { runToolCall } from './tool-call.js';

describe('runToolCall', () => {
  it('sends the result text with tool.complete (clients show it under the tool line)', async () => {
    const events: AgentEvent[] = [];
    await runToolCall(
      { id: 'call-1', type: 'function', function: { name: 'nope', arguments: '{}' } },
      {
        tools: new Map(),
        emit: (e) => events.push(e),
        context: () => {
          throw new Error('not reached');
        },
        signal: new AbortController().signal,
      },
    );
    const done = events.find((e) => e.type === 'tool.complete');
    expect(done?.payload).toMatchObject({ tool_id: 'call-1', ok: false, summary: 'unknown tool' });
    expect(done?.type === 'tool.complete' && done.payload.detail).toMatch(/^Unknown tool "nope"/);
  });
});
