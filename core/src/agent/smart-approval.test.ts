/**
 * `approvals.mode: smart` through the agent loop: the scripted model asks for a flagged terminal
 * command, the same scripted server plays the reviewer, and the real terminal tool runs (or not)
 * in a temporary folder. The outcome is visible as an `approval.smart` event and in the stored
 * tool result's `outcome.approvals`.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../approvals/types.js';
import { MessageOutcome } from '../protocol/records.js';
import { useTestAgents } from './testing.js';

const agents = useTestAgents();

function setup(answer: 'once' | 'deny') {
  const asked: ApprovalRequest[] = [];
  const { root, agent, events, db, session } = agents.create({
    config: { approvals: { mode: 'smart', smart_model: 'judge' } },
    prefix: 'agent-smart-',
    agent: {
      onApproval: async (req) => {
        asked.push(req);
        return answer;
      },
    },
  });
  const build = join(root, 'build');
  mkdirSync(build);
  writeFileSync(join(build, 'out.o'), 'x');
  const toolOutcome = (): MessageOutcome => {
    const tool = db.getMessages(session.id).find((m) => m.role === 'tool');
    return MessageOutcome.parse(JSON.parse(tool?.outcome ?? '{}'));
  };
  return { agent, events, asked, build, toolOutcome };
}

const rmBuild = { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf ./build' } }] };
const verdict = (v: string, reason: string) => ({ text: JSON.stringify({ verdict: v, reason }) });

describe('smart approvals in the agent loop', () => {
  it('a low-risk flagged command runs without asking; the event and the stored outcome say so', async () => {
    const { agent, events, asked, build, toolOutcome } = setup('deny');
    const before = agents.model.requests.length;
    agents.model.push(rmBuild, verdict('APPROVE', 'removes a local build folder'), { text: 'done' });
    const r = await agent.runTurn('clean the build');
    expect(r.status).toBe('complete');
    expect(asked).toHaveLength(0);
    expect(existsSync(build)).toBe(false);
    expect((agents.model.requests[before + 1]!.body as { model: string }).model).toBe('judge');
    expect(events.find((e) => e.type === 'approval.smart')?.payload).toMatchObject({
      verdict: 'approve',
      reason: 'removes a local build folder',
    });
    expect(toolOutcome().approvals).toEqual([
      { choice: 'once', by: 'smart', reason: 'removes a local build folder' },
    ]);
  });

  it('a DENY verdict reaches the user with only once/deny; their refusal keeps the command from running', async () => {
    const { agent, events, asked, build, toolOutcome } = setup('deny');
    agents.model.push(rmBuild, verdict('DENY', 'deletes project output'), { text: 'ok, not deleting' });
    await agent.runTurn('clean the build');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.choices).toEqual(['once', 'deny']);
    expect(existsSync(build)).toBe(true);
    expect(events.find((e) => e.type === 'approval.smart')?.payload).toMatchObject({ verdict: 'deny' });
    expect(toolOutcome().approvals).toEqual([
      { choice: 'deny', by: 'smart', reason: 'deletes project output' },
      { choice: 'deny', by: 'user' },
    ]);
    // the refusal travels as a typed field, live and stored (the TUI shows `✗ Blocked …`)
    expect(events.find((e) => e.type === 'tool.complete')?.payload).toMatchObject({
      ok: false,
      blocked: { reason: 'denied' },
    });
    expect(toolOutcome().blocked).toEqual({ reason: 'denied' });
  });

  it('a malformed verdict asks the user as in manual mode; their approval runs the command', async () => {
    const { agent, events, asked, build } = setup('once');
    agents.model.push(rmBuild, { text: 'APPROVE' }, { text: 'done' });
    await agent.runTurn('clean the build');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.choices).toEqual(['once', 'session', 'always', 'deny']);
    expect(existsSync(build)).toBe(false);
    expect(events.find((e) => e.type === 'approval.smart')?.payload).toMatchObject({
      verdict: 'escalate',
      failed: true,
    });
  });
});
