/**
 * A tool call's `duration_ms` is the tool's own running time: what it waited for the user to
 * answer its approval is left out.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestAgents } from './testing.js';

const agents = useTestAgents();
const WAIT_MS = 1_000;

describe('duration_ms of a tool call that waited for an approval', () => {
  it('leaves the wait out', async () => {
    const t = agents.create({
      prefix: 'agent-duration-',
      agent: { onApproval: () => new Promise((r) => setTimeout(() => r('once'), WAIT_MS)) },
    });
    const victim = join(t.root, 'victim');
    mkdirSync(victim);
    agents.model.push({ toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] });
    agents.model.push({ text: 'done' });
    const started = performance.now();
    const r = await t.agent.runTurn('clean up', new AbortController().signal);
    expect(r.status).toBe('complete');
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(WAIT_MS);
    const complete = t.events.find((e) => e.type === 'tool.complete');
    expect(complete?.type === 'tool.complete' && complete.payload.ok).toBe(true);
    const ms = complete?.type === 'tool.complete' ? complete.payload.duration_ms : -1;
    expect(ms).toBeGreaterThanOrEqual(0);
    // the turn held the wait and the tool's own time (and the model's): a duration that counted the
    // wait would pass what is left of the turn once the wait is taken out, however slow the machine
    expect(ms).toBeLessThanOrEqual(elapsed - WAIT_MS);
  });
});
