/**
 * Who may answer a turn's questions in a chat: only the person whose message started the turn —
 * in a session several people share (a group with `group_sessions_per_user: false`, a thread)
 * another participant's `/approve`, `/deny` or button press answers nothing, however allowed
 * they are, and their plain message is a message of its own, not the answer to a clarify question.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usePipelineTests } from './pipeline-testing.js';
import type { MessageSource } from './source.js';

const pipes = usePipelineTests();

const inGroup = (user: string): MessageSource => ({
  platform: 'memory',
  chatType: 'group',
  chatId: 'g1',
  chatName: 'Team',
  userId: user,
  userName: user,
});

function setup() {
  return pipes.create({
    platform: { allowed_users: ['alice', 'bob'], group_sessions_per_user: false },
    caps: { buttons: true },
    config: { terminal: { sandbox: { platforms: 'off' } } },
  });
}

describe('approvals in a shared session', () => {
  it("another participant's /approve and button press are refused; the asker's answer counts", async () => {
    const { adapter, root } = setup();
    pipes.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${join(root, 'nothing')}` } }] },
      { echo: 'last_tool_result', prefix: 'result: ' },
    );
    const turn = adapter.receive({ source: inGroup('alice'), text: 'clean up' });
    const asked = (await adapter.waitFor((s) => s.op === 'approval')) as { prompt: { requestId: string } };
    const rid = asked.prompt.requestId;

    await adapter.receive({ source: inGroup('bob'), text: '/approve always' });
    expect(adapter.texts('g1').at(-1)).toBe('Only the person who asked can answer this approval.');
    await adapter.receive({ source: inGroup('bob'), text: '/deny' });
    expect(adapter.texts('g1').at(-1)).toBe('Only the person who asked can answer this approval.');
    expect(await adapter.press({ source: inGroup('bob'), requestId: rid, value: 'once' })).toEqual({
      kind: 'refused',
      reason: 'Only the person who asked can answer this approval.',
    });

    await adapter.receive({ source: inGroup('alice'), text: '/deny' });
    await turn;
    expect(adapter.texts('g1').at(-1)).toMatch(/^result: .*(denied|not run|refused)/i);
  });

  it("another participant's message is not taken as the answer to a clarify question: it is answered after", async () => {
    const { adapter } = setup();
    pipes.model.push(
      {
        toolCalls: [{ name: 'clarify', arguments: { question: 'Which branch?', choices: ['main', 'dev'] } }],
      },
      { echo: 'last_tool_result', prefix: 'chose: ' },
      { text: 'hello bob' },
    );
    const turn = adapter.receive({ source: inGroup('alice'), text: 'deploy it' });
    await adapter.waitFor((s) => s.op === 'send' && s.text.includes('Which branch?'));
    const bobs = adapter.receive({ source: inGroup('bob'), text: 'hello' });
    await adapter.receive({ source: inGroup('alice'), text: '2' });
    await turn;
    await bobs;
    const texts = adapter.texts('g1');
    expect(texts.find((t) => t.startsWith('chose: '))).toContain('"user_response":"dev"');
    expect(texts.at(-1)).toBe('hello bob');
    // the third model call is bob's own prompt
    const last = (pipes.model.requests[2]!.body.messages as { role: string; content: unknown }[]).at(-1)!;
    expect(last).toMatchObject({ role: 'user', content: expect.stringMatching(/bob.*hello$/) });
  });
});

describe('an approval question the chat refuses', () => {
  it('goes again as plain text, and /approve answers it', async () => {
    const { adapter, root } = pipes.create({
      platform: { allowed_users: ['alice'] },
      caps: { buttons: true, approvalFails: true },
      config: { terminal: { sandbox: { platforms: 'off' } } },
    });
    const target = join(root, 'gone-dir');
    mkdirSync(target);
    pipes.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${target}` } }] },
      { echo: 'last_tool_result', prefix: 'result: ' },
    );
    const dm: MessageSource = { platform: 'memory', chatType: 'dm', chatId: 'dm-a', userId: 'alice' };
    const turn = adapter.receive({ source: dm, text: 'remove it' });
    await adapter.waitFor((s) => s.op === 'send' && s.text.startsWith('Approval needed to run: rm -rf'));
    await adapter.receive({ source: dm, text: '/approve' });
    await turn;
    expect(existsSync(target)).toBe(false);
  });
});
