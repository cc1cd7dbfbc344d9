/**
 * The agent loop gives tool calls the sandbox of the session's lane (`AgentOptions.sandboxLane`):
 * a terminal command runs in it, and `outside_sandbox: true` goes through the session's approval
 * path — asked in the TUI lane, never allowed in the cron lane.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../approvals/types.js';
import { resetSandboxDetection } from '../tools/sandbox/detect.js';
import { describeBwrap } from '../tools/sandbox/testing.js';
import type { SandboxLane } from '../tools/sandbox/policy.js';
import { useTestAgents } from './testing.js';

const agents = useTestAgents();
let outside: string;
beforeAll(() => {
  // outside /tmp: inside the sandbox /tmp is the session's own temp folder
  outside = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : process.cwd(), 'hermes-agent-sbx-'));
});
afterAll(() => rmSync(outside, { recursive: true, force: true }));

function setup(lane: SandboxLane, answer: 'once' | 'deny' = 'once') {
  const asked: ApprovalRequest[] = [];
  const t = agents.create({
    prefix: 'agent-sbx-',
    config: { terminal: { sandbox: 'workspace' } },
    agent: {
      sandboxLane: lane,
      onApproval: async (req) => {
        asked.push(req);
        return answer;
      },
    },
  });
  const victim = mkdtempSync(join(outside, 'victim-'));
  mkdirSync(join(victim, 'keep'));
  const results = (): string[] =>
    t.db
      .getMessages(t.session.id)
      .filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
  return { ...t, asked, victim, results };
}

describeBwrap('the sandbox in the agent loop', () => {
  it('tui lane: the command is blocked by the sandbox; outside_sandbox asks the user and then runs', async () => {
    const { agent, asked, victim, results } = setup('tui');
    const command = `rm -rf ${join(victim, 'keep')}`;
    agents.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command, outside_sandbox: true } }] },
      { text: 'done' },
    );
    await agent.runTurn('clean up');
    const [first, second] = results();
    expect(first).toContain('blocked by the sandbox');
    expect(asked.map((r) => r.patternKeys).flat()).toContain('outside-sandbox');
    expect(second).not.toContain('blocked');
    expect(existsSync(join(victim, 'keep'))).toBe(false);
  });

  it('cron lane: outside_sandbox is denied without asking', async () => {
    const { agent, asked, victim, results } = setup('cron');
    agents.model.push(
      {
        toolCalls: [
          {
            name: 'terminal',
            arguments: { command: `rmdir ${join(victim, 'keep')}`, outside_sandbox: true },
          },
        ],
      },
      { text: 'done' },
    );
    await agent.runTurn('clean up');
    expect(results()[0]).toMatch(/BLOCKED: .*outside the sandbox/);
    expect(asked.some((r) => r.patternKeys.includes('outside-sandbox'))).toBe(false);
    expect(existsSync(join(victim, 'keep'))).toBe(true);
  });
});

describe('the sandbox fallback in the agent loop (bwrap missing)', () => {
  let savedPath: string | undefined;
  beforeAll(() => {
    savedPath = process.env.PATH;
    process.env.PATH = ''; // no bwrap on PATH: the shell is found by its absolute path
    resetSandboxDetection();
  });
  afterAll(() => {
    process.env.PATH = savedPath;
    resetSandboxDetection();
  });

  it('tui lane, configured sandbox: the user is asked once through the approval path; yes runs unsandboxed', async () => {
    const { agent, asked, results } = setup('tui', 'once');
    const step = { toolCalls: [{ name: 'terminal', arguments: { command: 'echo ran' } }] };
    agents.model.push(step, step, { text: 'done' });
    await agent.runTurn('go');
    expect(asked.map((r) => r.patternKeys)).toEqual([['sandbox-unavailable']]);
    expect(asked[0]!.choices).toEqual(['once', 'deny']);
    expect(asked[0]!.description).toMatch(/not installed/);
    expect(results()).toEqual(['ran\n[exit code: 0]', 'ran\n[exit code: 0]']);
  });

  it('cron lane: refused without asking, naming why', async () => {
    const { agent, asked, results } = setup('cron');
    agents.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo ran' } }] },
      { text: 'done' },
    );
    await agent.runTurn('go');
    expect(asked).toEqual([]);
    expect(results()[0]).toMatch(
      /^blocked by the sandbox: .*cannot run here — bwrap \(bubblewrap\) is not installed/,
    );
  });
});
