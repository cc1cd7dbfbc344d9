import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestAgents } from './testing.js';

const agents = useTestAgents();
let firstRoot = '';

describe('useTestAgents', () => {
  it('gives agents on their own temp folder, talking to the file’s model server', async () => {
    const t = agents.create({ prefix: 'agent-fixture-' });
    firstRoot = t.root;
    expect(existsSync(t.root)).toBe(true);
    agents.model.push({ text: 'hello' });
    const r = await t.agent.runTurn('hi', new AbortController().signal);
    expect(r.text).toBe('hello');
    expect(agents.model.requests).toHaveLength(1);
  });

  it('removes the previous test’s folder', () => {
    expect(firstRoot).not.toBe('');
    expect(existsSync(firstRoot)).toBe(false);
  });
});
