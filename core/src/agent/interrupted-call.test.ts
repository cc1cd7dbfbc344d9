/**
 * A turn interrupted at the approval of the first of two tool calls: the second call's stored
 * "not run" result is also emitted live (tool.start, tool.complete), with the same text, so live
 * and re-attached clients show the same transcript.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TOOL_RESULT } from './history.js';
import { useTestAgents } from './testing.js';

const agents = useTestAgents();

describe('a tool call the interrupt kept from running', () => {
  it('is emitted live with the stored result', async () => {
    const ctl = new AbortController();
    const t = agents.create({
      prefix: 'agent-notrun-',
      agent: {
        onApproval: () => {
          ctl.abort(); // the user interrupts while the approval is pending
          return Promise.resolve('deny');
        },
      },
    });
    const victim = join(t.root, 'victim');
    mkdirSync(victim);
    agents.model.push({
      toolCalls: [
        { name: 'terminal', arguments: { command: `rm -rf ${victim}` } },
        { name: 'terminal', arguments: { command: 'echo second' } },
      ],
    });
    const r = await t.agent.runTurn('clean up', ctl.signal);
    expect(r.status).toBe('interrupted');

    const stored = t.db.getMessages(t.session.id).filter((m) => m.role === 'tool');
    expect(stored).toHaveLength(2);
    const second = stored[1]!;
    expect(second.content).toBe(INTERRUPTED_TOOL_RESULT);
    const id = second.tool_call_id!;
    const start = t.events.find((e) => e.type === 'tool.start' && e.payload.tool_id === id);
    const complete = t.events.find((e) => e.type === 'tool.complete' && e.payload.tool_id === id);
    expect(start).toMatchObject({ payload: { name: 'terminal', args: { command: 'echo second' } } });
    expect(complete).toMatchObject({
      payload: { ok: false, summary: 'interrupted', detail: second.content },
    });
    // the stored outcome carries what the live event said
    expect(JSON.parse(String(second.outcome))).toMatchObject({
      ok: false,
      summary: 'interrupted',
      duration_ms: 0,
    });
  });
});
