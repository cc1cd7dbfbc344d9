/**
 * `delegate_task` end to end: a parent agent with a real SessionDB delegates to sub-agents
 * answered by the scripted model. Overlap of parallel sub-agents is measured by a function step
 * that holds each sub-agent's first request until both have arrived.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FunctionStep,
  type RecordedRequest,
} from '../../../tests/support/fake-model-server.js';
import type { AgentEvent, AgentEventPayload } from '../protocol/events.js';
import { clarifyTool } from '../tools/clarify.js';
import { delegateTool } from '../tools/delegate.js';
import type { ToolDefinition } from '../tools/types.js';
import { subagentDelegation } from './subagent.js';
import { createTestAgent } from './testing.js';

type Msg = { role: string; content: string | null };

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());

const lookupTool: ToolDefinition = {
  name: 'lookup',
  description: 'test lookup',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
  readOnly: true,
  async handler(args) {
    return { ok: true, content: `SECRET-INTERMEDIATE ${String(args.q)}` };
  },
};

function setup() {
  return createTestAgent({
    modelUrl: model.url,
    prefix: 'subagent-',
    session: { source: 'tui' },
    tools: [delegateTool, lookupTool, clarifyTool],
    systemPrompt: 'You are the parent.',
    agent: { delegation: subagentDelegation },
  });
}

const messages = (r: RecordedRequest): Msg[] => r.body.messages as Msg[];
const system = (r: RecordedRequest): string => messages(r)[0]?.content ?? '';
const toolNames = (r: RecordedRequest): string[] =>
  ((r.body.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
const payloads = <K extends 'subagent.start' | 'subagent.progress' | 'subagent.complete'>(
  events: AgentEvent[],
  type: K,
) => events.filter((e) => e.type === type).map((e) => e.payload as AgentEventPayload<K>);

describe('delegate_task', () => {
  it('runs two sub-agents in parallel and gives the parent only their summaries', async () => {
    const { agent, db, session, events } = setup();
    let firstRequests = 0;
    let release!: () => void;
    const bothArrived = new Promise<void>((r) => (release = r));
    let overlapped = false;
    const subRequests: RecordedRequest[] = [];
    // one dispatcher for every request after the parent's first: sub-agent A looks something up
    // before answering, B answers at once; each first request waits until both have arrived
    const dispatch: FunctionStep = async (req) => {
      if (!system(req).startsWith('You are a sub-agent')) return { text: 'all done' };
      subRequests.push(req);
      const isA = system(req).includes('find A');
      if (messages(req).some((m) => m.role === 'tool')) return { text: 'summary A: topic A is 42' };
      if (++firstRequests === 2) release();
      overlapped = await Promise.race([
        bothArrived.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 5_000)),
      ]);
      return isA
        ? { toolCalls: [{ name: 'lookup', arguments: { q: 'A' } }] }
        : { text: 'summary B: nothing found' };
    };
    const before = model.requests.length;
    model.push(
      {
        toolCalls: [
          {
            name: 'delegate_task',
            arguments: {
              tasks: [
                { goal: 'find A', tools: ['lookup'] },
                { goal: 'find B', context: 'look in /srv' },
              ],
            },
          },
        ],
      },
      dispatch,
      dispatch,
      dispatch,
      dispatch,
    );
    const r = await agent.runTurn('research A and B');
    expect(r).toMatchObject({ status: 'complete', text: 'all done' });
    expect(overlapped).toBe(true);

    // the sub-agents: own system prompt and goal, own tool subsets, never delegate_task/clarify
    const a = subRequests.find((q) => system(q).includes('find A'))!;
    const b = subRequests.find((q) => system(q).includes('find B'))!;
    expect(messages(a)[1]).toMatchObject({ role: 'user', content: 'find A' });
    expect(system(b)).toContain('look in /srv');
    expect(toolNames(a)).toEqual(['lookup']);
    expect(toolNames(b)).toEqual(['lookup']);

    // the parent's next request holds the summaries, nothing of the sub-agents' intermediate work
    const parentNext = model.requests
      .slice(before)
      .find((q) => q.body.messages.at(-1)?.role === 'tool' && system(q) === 'You are the parent.')!;
    const result = messages(parentNext).at(-1)!.content!;
    expect(JSON.parse(result).results).toMatchObject([
      { task_index: 0, status: 'complete', summary: 'summary A: topic A is 42' },
      { task_index: 1, status: 'complete', summary: 'summary B: nothing found' },
    ]);
    expect(JSON.stringify(parentNext.body)).not.toContain('SECRET-INTERMEDIATE');
    expect(agent.getHistory().some((m) => String(m.content).includes('SECRET-INTERMEDIATE'))).toBe(false);

    // events reach the parent's stream; sessions are stored as children of the parent
    const starts = payloads(events, 'subagent.start');
    expect(starts.map((s) => s.goal).sort()).toEqual(['find A', 'find B']);
    expect(payloads(events, 'subagent.progress')).toContainEqual(
      expect.objectContaining({ kind: 'tool.start', tool: 'lookup' }),
    );
    expect(payloads(events, 'subagent.complete').map((c) => c.status)).toEqual(['complete', 'complete']);
    const children = db.listSessions({ source: 'subagent' });
    expect(children).toHaveLength(2);
    for (const c of children)
      expect(c).toMatchObject({ parent_session_id: session.id, end_reason: 'complete' });
    expect(children.map((c) => c.id).sort()).toEqual(starts.map((s) => s.subagent_id).sort());
  });

  it('stops its sub-agents when the parent is interrupted', async () => {
    const { agent, db, events } = setup();
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'delegate_task', arguments: { goal: 'think forever' } }] },
      { hang: true },
    );
    const controller = new AbortController();
    const turn = agent.runTurn('go', controller.signal);
    const reqs = await model.waitForRequests(before + 2, 5_000);
    expect(system(reqs[before + 1]!)).toContain('think forever');
    controller.abort();
    const r = await turn;
    expect(r.status).toBe('interrupted');
    expect(payloads(events, 'subagent.complete')).toMatchObject([{ status: 'interrupted' }]);
    await vi.waitFor(() => expect(model.requests[before + 1]!.clientClosedAt).toBeDefined());
    expect(db.listSessions({ source: 'subagent' })).toMatchObject([{ end_reason: 'interrupted' }]);
    expect(model.requests.length).toBe(before + 2);
  });

  it('stops a sub-agent at its iteration budget', async () => {
    const { agent, events } = setup();
    model.push(
      { toolCalls: [{ name: 'delegate_task', arguments: { goal: 'loop', max_iterations: 1 } }] },
      { toolCalls: [{ name: 'lookup', arguments: { q: 'again' } }] },
      { text: 'gave up' },
    );
    const r = await agent.runTurn('go');
    expect(r.text).toBe('gave up');
    expect(payloads(events, 'subagent.start')).toMatchObject([{ max_iterations: 1 }]);
    expect(payloads(events, 'subagent.complete')).toMatchObject([{ status: 'max_turns' }]);
  });
});
