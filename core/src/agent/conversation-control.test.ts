/**
 * The agent's side of conversation control, against the scripted model: guidance is stored and
 * sent at the step boundary (after the tool results, before the next request), marked as such,
 * also when the history is rebuilt from the store; `replaceHistory` keeps cut messages out of
 * every later request.
 */
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../tools/types.js';
import { GUIDANCE_PREFIX, guidanceForModel, historyFromRecords } from './history.js';
import { useTestAgents } from './testing.js';

const agents = useTestAgents();

/** A tool that lets the test act while it runs. */
function hookTool(onRun: () => void): ToolDefinition {
  return {
    name: 'probe',
    description: 'test',
    parameters: { type: 'object', properties: {} },
    readOnly: true,
    handler() {
      onRun();
      return Promise.resolve({ ok: true, content: 'probe result' });
    },
  };
}

type Msg = { role: string; content?: unknown };
const bodyMessages = (body: unknown): Msg[] => (body as { messages: Msg[] }).messages;

describe('steering in the agent loop', () => {
  it('hands guidance given during tool calls to the next model request, after the tool results', async () => {
    const waiting: string[] = [];
    const { agent, db, session } = agents.create({ tools: [hookTool(() => waiting.push('use tabs'))] });
    const model = agents.model;
    const before = model.requests.length;
    model.push({ toolCalls: [{ name: 'probe' }] }, { text: 'done with tabs' });
    const r = await agent.runTurn('indent it', undefined, { takeGuidance: () => waiting.splice(0) });
    expect(r.text).toBe('done with tabs');
    const second = bodyMessages(model.requests[before + 1]!.body);
    expect(second.slice(-3).map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
    expect(second.at(-1)!.content).toBe(guidanceForModel('use tabs'));
    // stored in order, marked, and marked again when the history is rebuilt
    const stored = db.getMessages(session.id).filter((m) => m.role === 'user');
    expect(stored.map((m) => [m.content, m.status])).toEqual([
      ['indent it', null],
      ['use tabs', 'guidance'],
    ]);
    const rebuilt = historyFromRecords(db.getMessages(session.id)).history;
    expect(rebuilt.filter((m) => m.role === 'user').at(-1)!.content).toMatch(GUIDANCE_PREFIX);
  });

  it('after replaceHistory the next request carries none of the cut messages', async () => {
    const { agent, db, session } = agents.create();
    const model = agents.model;
    model.push({ text: 'answer one' }, { text: 'answer two' }, { text: 'answer three' });
    await agent.runTurn('question one secret-a');
    await agent.runTurn('question two secret-b');
    const cutAt = db.getMessages(session.id).find((m) => m.content === 'question two secret-b')!.id;
    db.transcript.truncateFrom(session.id, cutAt);
    agent.replaceHistory(historyFromRecords(db.getMessages(session.id)).history);
    const before = model.requests.length;
    await agent.runTurn('question three');
    const sent = JSON.stringify(model.requests[before]!.body);
    expect(sent).toContain('secret-a');
    expect(sent).not.toContain('secret-b');
    expect(sent).not.toContain('answer two');
  });
});
