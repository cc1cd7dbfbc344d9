import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events.js';
import { runToolCall, toolDetail } from './tool-call.js';

describe('toolDetail', () => {
  it('keeps a short result as it is', () => {
    expect(toolDetail('1\n2\n[exit code: 0]')).toBe('1\n2\n[exit code: 0]');
  });

  it('keeps the head and the tail of a long result around a marker', () => {
    const text = `${'a'.repeat(60)}${'b'.repeat(40)}${'c'.repeat(60)}`;
    const d = toolDetail(text, 100);
    expect(d).toBe(`${'a'.repeat(50)}\n… 60 characters left out …\n${'c'.repeat(50)}`);
  });
});

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
