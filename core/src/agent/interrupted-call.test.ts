/**
 * A turn interrupted at the approval of the first of two tool calls: the second call's stored
 * "not run" result is also emitted live (tool.start, tool.complete), with the same text, so live
 * and re-attached clients show the same transcript.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { INTERRUPTED_TOOL_RESULT } from './history.js';
import { createTestAgent } from './testing.js';

let model: FakeModelServer;
const roots: string[] = [];
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe('a tool call the interrupt kept from running', () => {
  it('is emitted live with the stored result', async () => {
    const ctl = new AbortController();
    const t = createTestAgent({
      modelUrl: model.url,
      prefix: 'agent-notrun-',
      agent: {
        onApproval: () => {
          ctl.abort(); // the user interrupts while the approval is pending
          return Promise.resolve('deny');
        },
      },
    });
    roots.push(t.root);
    const victim = join(t.root, 'victim');
    mkdirSync(victim);
    model.push({
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
