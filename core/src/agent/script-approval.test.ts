/**
 * `execute_code` through the agent loop goes through the session's approval guard, as a
 * terminal command does: the user is asked with the language and the script, a denial keeps it
 * from running, a headless agent denies it, and in smart mode the reviewer may approve.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalChoice, ApprovalRequest } from '../approvals/types.js';
import { useTestAgents } from './testing.js';

const agents = useTestAgents();

function setup(opts: { answer?: ApprovalChoice; smart?: boolean }) {
  const asked: ApprovalRequest[] = [];
  const t = agents.create({
    prefix: 'agent-script-',
    config: opts.smart ? { approvals: { mode: 'smart', smart_model: 'judge' } } : {},
    agent: opts.answer
      ? {
          onApproval: async (req) => {
            asked.push(req);
            return opts.answer!;
          },
        }
      : {},
  });
  const victim = join(t.root, 'victim');
  mkdirSync(victim);
  const code = `import fs from 'node:fs'; fs.rmSync(${JSON.stringify(victim)}, { recursive: true }); console.log('deleted');`;
  const step = { toolCalls: [{ name: 'execute_code', arguments: { code } }] };
  const toolResult = (): string =>
    String(t.db.getMessages(t.session.id).find((m) => m.role === 'tool')?.content ?? '');
  return { ...t, asked, victim, code, step, toolResult };
}

describe('execute_code approval in the agent loop', () => {
  it('asks the user with the language and script; deny keeps the script from running', async () => {
    const { agent, asked, victim, code, step, toolResult } = setup({ answer: 'deny' });
    agents.model.push(step, { text: 'ok' });
    await agent.runTurn('clean up');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.command).toBe(`execute_code (javascript):\n${code}`);
    expect(asked[0]!.patternKeys).toEqual(['execute-code']);
    expect(existsSync(victim)).toBe(true);
    expect(toolResult()).toMatch(/^BLOCKED: The user denied a script/);
  });

  it('a headless agent (no approval callback) denies the script', async () => {
    const { agent, victim, step, toolResult } = setup({});
    agents.model.push(step, { text: 'ok' });
    await agent.runTurn('clean up');
    expect(existsSync(victim)).toBe(true);
    expect(toolResult()).toMatch(/no one who could approve it is here/);
  });

  it('runs after `once`', async () => {
    const { agent, victim, step, toolResult } = setup({ answer: 'once' });
    agents.model.push(step, { text: 'done' });
    await agent.runTurn('clean up');
    expect(existsSync(victim)).toBe(false);
    expect(toolResult()).toBe('deleted\n');
  });

  it('smart mode: the reviewer judges the whole script; APPROVE runs it unasked', async () => {
    const { agent, asked, victim, step } = setup({ answer: 'deny', smart: true });
    const before = agents.model.requests.length;
    agents.model.push(
      step,
      { text: JSON.stringify({ verdict: 'APPROVE', reason: 'deletes a temp folder' }) },
      { text: 'done' },
    );
    await agent.runTurn('clean up');
    expect(asked).toHaveLength(0);
    expect(existsSync(victim)).toBe(false);
    const review = JSON.stringify(agents.model.requests[before + 1]!.body);
    expect(review).toContain('execute_code (javascript)');
    expect(review).toContain('fs.rmSync');
  });
});
