import { describe, expect, it } from 'vitest';
import type { CheckpointTracker } from '../checkpoints/tracker.js';
import { ConfigSchema } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import type { ChatMessage, ToolCall } from '../model/types.js';
import type { AgentEvent } from '../protocol/events.js';
import type { NewMessage } from '../state/types.js';
import type { ToolContext, ToolDefinition } from '../tools/types.js';
import type { AgentOptions } from './agent-types.js';
import { ToolRuns } from './tool-runs.js';

/** A tool that answers its name after `ms`, recording the context it ran with. */
function tool(name: string, ms: number, seen: ToolContext[]): ToolDefinition {
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: {} },
    readOnly: true,
    handler: async (_args, ctx) => {
      seen.push(ctx);
      await new Promise((r) => setTimeout(r, ms));
      return { ok: true, content: `${name} done` };
    },
  };
}

const call = (id: string, name: string): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: '{}' },
});

describe('ToolRuns', () => {
  it('stores results in call order with their outcome, under the settings read at the call', async () => {
    const seen: ToolContext[] = [];
    const tools = [tool('slow', 30, seen), tool('fast', 0, seen)];
    const stored: NewMessage[] = [];
    const history: ChatMessage[] = [];
    const events: AgentEvent[] = [];
    const opts = {
      home: new HermesHome('/nonexistent/hermes-home'),
      config: ConfigSchema.parse({}),
      secrets: {},
      cwd: '/work/here',
      sessionId: 's1',
    } as unknown as AgentOptions;
    const runs = new ToolRuns({
      options: () => opts,
      sessionId: () => 's2',
      guard: () => {
        throw new Error('no approval expected');
      },
      tools: () => tools,
      toolsByName: () => new Map(tools.map((t) => [t.name, t])),
      todos: [],
      checkpoints: {} as CheckpointTracker,
      emit: (e) => events.push(e),
      persist: (m) => stored.push(m),
      pushHistory: (m) => history.push(m),
    });
    await runs.run([call('a', 'slow'), call('b', 'fast')], new AbortController().signal);
    expect(stored.map((m) => [m.tool_call_id, m.content])).toEqual([
      ['a', 'slow done'],
      ['b', 'fast done'],
    ]);
    expect(stored.every((m) => m.outcome !== undefined)).toBe(true);
    expect(history.map((m) => (m.role === 'tool' ? m.tool_call_id : m.role))).toEqual(['a', 'b']);
    expect(seen.map((c) => [c.sessionId, c.cwd])).toEqual([
      ['s2', '/work/here'],
      ['s2', '/work/here'],
    ]);
    expect(seen[0]!.sandbox).toBeUndefined();
    expect(events.filter((e) => e.type === 'tool.complete')).toHaveLength(2);
  });
});
