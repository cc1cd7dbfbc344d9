import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { EventTranslator } from './event-map.js';

const ev = (type: string, payload: Record<string, unknown>): WireEvent =>
  ({ type, session_id: 's1', seq: 1, payload }) as unknown as WireEvent;

describe('EventTranslator', () => {
  it('streams text and reasoning as message and thought chunks', () => {
    const t = new EventTranslator('/w');
    expect(t.translate(ev('message.delta', { text: 'Hi' }))).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } },
    ]);
    expect(t.translate(ev('reasoning.delta', { text: 'hmm' }))).toEqual([
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } },
    ]);
    expect(t.translate(ev('status.update', { state: 'thinking' }))).toEqual([]);
  });

  it('echoes the prompt of a turn another client started, not the editor’s own', () => {
    const t = new EventTranslator('/w');
    expect(t.translate(ev('turn.start', { prompt_id: 'p', text: 'from the terminal' }))).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'from the terminal' } },
    ]);
    expect(t.translate(ev('turn.start', { prompt_id: 'q', text: 'mine' }), true)).toEqual([]);
  });

  it('announces a call with kind, locations and diff, and completes it keeping the diff', () => {
    const t = new EventTranslator('/w');
    const [start] = t.translate(
      ev('tool.start', {
        tool_id: 't1',
        name: 'patch',
        args: { path: 'a.txt', old_string: 'a', new_string: 'b' },
        summary: 'a.txt',
      }),
    );
    expect(start).toMatchObject({
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'Editing a.txt',
      kind: 'edit',
      status: 'in_progress',
      locations: [{ path: '/w/a.txt' }],
      content: [{ type: 'diff', path: '/w/a.txt', oldText: 'a', newText: 'b' }],
    });
    const [done] = t.translate(
      ev('tool.complete', {
        tool_id: 't1',
        ok: true,
        summary: 'a.txt: 1 replaced',
        duration_ms: 3,
        detail: 'Patched',
      }),
    );
    expect(done).toMatchObject({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    expect(done).not.toHaveProperty('content');
    expect(t.running.size).toBe(0);
  });

  it('shows a command’s output fenced, a blocked call as failed with its reason', () => {
    const t = new EventTranslator('/w');
    t.translate(ev('tool.start', { tool_id: 't2', name: 'terminal', args: { command: 'ls' } }));
    expect(t.askingCall()).toBe('t2');
    const [out] = t.translate(
      ev('tool.complete', {
        tool_id: 't2',
        ok: false,
        summary: 'denied',
        duration_ms: 1,
        blocked: { reason: 'denied' },
      }),
    );
    expect(out).toMatchObject({
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: '```\nBlocked: denied\n```' } }],
    });
    expect(t.askingCall()).toBeUndefined();
  });

  it('turns a todo result into a plan', () => {
    const t = new EventTranslator('/w');
    t.translate(ev('tool.start', { tool_id: 't3', name: 'todo', args: {} }));
    const detail = JSON.stringify({ todos: [{ id: '1', content: 'step', status: 'pending' }] });
    const out = t.translate(
      ev('tool.complete', { tool_id: 't3', ok: true, summary: '0/1 done', duration_ms: 1, detail }),
    );
    expect(out.at(-1)).toEqual({
      sessionUpdate: 'plan',
      entries: [{ content: 'step', status: 'pending', priority: 'medium' }],
    });
  });
});
