/**
 * Context compression with a real SessionDB and the scripted model: where the history is cut,
 * compression at the threshold (usage override), on a 413, and on demand (`compact`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeModelServer,
  type FakeModelServer,
  type RecordedRequest,
} from '../../../tests/support/fake-model-server.js';
import type { ChatMessage } from '../model/types.js';
import type { AgentEvent, AgentEventPayload } from '../protocol/events.js';
import type { ToolDefinition } from '../tools/types.js';
import {
  SUMMARIZER_SYSTEM_PROMPT,
  SUMMARY_PREFIX,
  assembleCompressed,
  planCompression,
} from './compression-plan.js';
import { historyFromRecords } from './history.js';
import { createTestAgent } from './testing.js';

type Sent = Array<{
  role: string;
  content: string | null;
  tool_calls?: Array<{ id: string }>;
  tool_call_id?: string;
}>;

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());

/** A read-only tool whose result is long enough to weigh in the context. */
const lookupTool: ToolDefinition = {
  name: 'lookup',
  description: 'test lookup',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
  readOnly: true,
  async handler(args) {
    return { ok: true, content: `result for ${String(args.q)}: ${'x'.repeat(800)}` };
  },
};

function setup(compression: Record<string, unknown> = {}, history: ChatMessage[] = []) {
  return createTestAgent({
    modelUrl: model.url,
    prefix: 'compress-',
    model: { context_length: 10_000 },
    config: { compression: { threshold: 0.5, target_ratio: 0.05, protect_last_n: 3, ...compression } },
    session: { source: 'tui', title: 'long work' },
    tools: [lookupTool],
    history,
    agent: { contextWindow: 10_000 },
  });
}

const sent = (r: RecordedRequest): Sent => r.body.messages as Sent;
const isSummaryCall = (r: RecordedRequest): boolean => sent(r)[0]?.content === SUMMARIZER_SYSTEM_PROMPT;
const compressedEvents = (events: AgentEvent[]) =>
  events
    .filter((e) => e.type === 'session.compressed')
    .map((e) => e.payload as AgentEventPayload<'session.compressed'>);

/** Every tool call is answered right after its assistant message, and every tool result has its call. */
function expectToolPairsIntact(messages: Sent): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') {
      let j = i - 1;
      while (j >= 0 && messages[j]!.role === 'tool') j--;
      const ids = (messages[j]?.tool_calls ?? []).map((c) => c.id);
      expect(ids, `tool result ${m.tool_call_id} has no call before it`).toContain(m.tool_call_id);
    }
    for (const [k, call] of (m.tool_calls ?? []).entries())
      expect(messages[i + 1 + k]?.tool_call_id, `call ${call.id} is not answered`).toBe(call.id);
  }
}

/** Turns of: user question → lookup call → its result → answer. */
function scriptedTurns(n: number, lastUsage?: number): void {
  for (let i = 0; i < n; i++) {
    model.push(
      { toolCalls: [{ name: 'lookup', arguments: { q: `topic ${i}` } }] },
      { text: `answer ${i}`, ...(i === n - 1 && lastUsage ? { usage: { prompt_tokens: lastUsage } } : {}) },
    );
  }
}

describe('planCompression / assembleCompressed', () => {
  const turn = (i: number): ChatMessage[] => [
    { role: 'user', content: `q${i}` },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'lookup', arguments: '{}' } }],
    },
    { role: 'tool', content: `r${i}`, tool_call_id: `c${i}` },
    { role: 'assistant', content: `a${i}` },
  ];
  const history = [0, 1, 2, 3, 4].flatMap(turn);

  it('keeps the first exchange and moves the tail cut off tool results onto their call', () => {
    // the last 2 messages would start on the tool result of turn 4: the tail starts at its call
    const plan = planCompression(history, { protectLastN: 2, tailTokenBudget: 0 })!;
    expect(plan).toEqual({ headEnd: 3, tailStart: 17 });
    expect(history[plan.tailStart]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'c4' }] });
  });

  it('returns undefined when the head and the protected tail cover everything', () => {
    expect(planCompression(history.slice(0, 6), { protectLastN: 3, tailTokenBudget: 0 })).toBeUndefined();
  });

  it('extends the tail by whole groups within the token budget', () => {
    const plan = planCompression(history, { protectLastN: 1, tailTokenBudget: 30 })!;
    expect(history[plan.tailStart]!.role).not.toBe('tool');
    expect(plan.tailStart).toBeLessThan(19);
  });

  it('puts the summary between head and tail with alternating roles', () => {
    const out = assembleCompressed(history, { headEnd: 3, tailStart: 17 }, 'S');
    expect(out.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(out[3]!.content).toContain(SUMMARY_PREFIX);
    // a user message after an assistant one: the summary is merged into that user message
    const merged = assembleCompressed(history, { headEnd: 4, tailStart: 16 }, 'S');
    expect(merged[4]).toMatchObject({ role: 'user' });
    expect(merged[4]!.content).toMatch(/S[\s\S]*q4$/);
  });
});

describe('Agent context compression', () => {
  it('compresses at the threshold into a child session, keeps tool pairs, and continues', async () => {
    const { agent, db, session, events } = setup();
    for (let i = 0; i < 6; i++) {
      scriptedTurns(1, i === 5 ? 6_000 : undefined); // the last answer reports 60 % of the window
      await agent.runTurn(`question ${i}`);
    }
    expect(compressedEvents(events)).toEqual([]);
    const before = model.requests.length;
    model.push({ text: 'SUMMARY: looked up topics 0-4' }, { text: 'continued' });
    const r = await agent.runTurn('next question');
    expect(r).toMatchObject({ status: 'complete', text: 'continued' });

    // the summary call: no tools, the middle of the history as text
    const summaryReq = model.requests[before]!;
    expect(isSummaryCall(summaryReq)).toBe(true);
    expect(summaryReq.body.tools).toBeUndefined();
    expect(sent(summaryReq)[1]!.content).toContain('question 2');

    // the continued request: system, first exchange, summary, protected tail, new question
    const next = sent(model.requests[before + 1]!);
    expect(next[0]).toMatchObject({ role: 'system', content: 'You are a test agent.' });
    expect(next[1]).toMatchObject({ role: 'user', content: 'question 0' });
    expect(next.find((m) => m.content?.includes('SUMMARY: looked up topics 0-4'))?.content).toContain(
      SUMMARY_PREFIX,
    );
    expect(next.some((m) => m.content === 'question 3')).toBe(false);
    expect(next.slice(-4).map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant', 'user']);
    expect(next.at(-1)).toMatchObject({ content: 'next question' });
    expect(next.length).toBeLessThan(sent(model.requests[before - 1]!).length);
    expectToolPairsIntact(next);

    // the child session links its parent; the parent keeps every message and is ended
    const [ev] = compressedEvents(events);
    expect(ev).toMatchObject({ parent_session_id: session.id, compressions: 1, reason: 'threshold' });
    expect(ev!.before_tokens).toBe(6_000);
    expect(ev!.after_tokens).toBeLessThan(ev!.before_tokens);
    expect(agent.sessionId).toBe(ev!.session_id);
    const child = db.getSession(agent.sessionId)!;
    // titles are unique: the continuation is "long work (2)", so /resume by title is never ambiguous
    expect(child).toMatchObject({ parent_session_id: session.id, title: 'long work (2)', source: 'tui' });
    expect(db.getSession(session.id)).toMatchObject({ state: 'ended', end_reason: 'compressed' });
    const parentMsgs = db.getMessages(session.id, { limit: 1000 });
    expect(parentMsgs.filter((m) => m.role === 'tool')).toHaveLength(6);
    // the question was stored before compressing; the answer after it went to the child only
    expect(parentMsgs.at(-1)).toMatchObject({ role: 'user', content: 'next question' });
    expect(parentMsgs.some((m) => m.content === 'continued')).toBe(false);
    const stored = historyFromRecords(db.getMessages(child.id, { limit: 1000 }));
    expect(stored.system).toBe('You are a test agent.');
    expect(stored.history.map((m) => m.content)).toEqual(
      next
        .slice(1)
        .map((m) => m.content)
        .concat('continued'),
    );

    // and the conversation goes on in the child
    model.push({ text: 'still here' });
    await agent.runTurn('and now?');
    expect(db.getMessages(child.id, { limit: 1000 }).at(-1)).toMatchObject({ content: 'still here' });
  });

  it('compresses and retries once when the provider answers 413', async () => {
    const history: ChatMessage[] = [];
    for (let i = 0; i < 6; i++)
      history.push(
        { role: 'user', content: `old question ${i}` },
        { role: 'assistant', content: `old answer ${i}` },
      );
    const { agent, db, session, events } = setup({ protect_last_n: 20 }, history);
    const before = model.requests.length;
    model.push({ error: { status: 413 } }, { text: 'SUMMARY of old questions' }, { text: 'fits now' });
    const r = await agent.runTurn('big question');
    expect(r).toMatchObject({ status: 'complete', text: 'fits now' });
    expect(isSummaryCall(model.requests[before + 1]!)).toBe(true);
    const retried = sent(model.requests[before + 2]!);
    expect(retried.length).toBeLessThan(sent(model.requests[before]!).length);
    expect(retried.some((m) => m.content?.includes('SUMMARY of old questions'))).toBe(true);
    expect(retried.at(-1)).toMatchObject({ role: 'user', content: 'big question' });
    expect(compressedEvents(events)).toMatchObject([{ reason: 'overflow', parent_session_id: session.id }]);
    expect(db.getSession(agent.sessionId)!.parent_session_id).toBe(session.id);
  });

  it('compacts on demand with a focus, and reports when there is nothing to compress', async () => {
    const history: ChatMessage[] = [];
    for (let i = 0; i < 5; i++)
      history.push({ role: 'user', content: `q ${i}` }, { role: 'assistant', content: `a ${i}` });
    const { agent, events } = setup({ protect_last_n: 20, enabled: false }, history);
    const before = model.requests.length;
    model.push({ text: 'SUMMARY focused' });
    const out = await agent.compact('the database schema');
    expect(out).toMatchObject({ compressions: 1, messagesBefore: 10 });
    expect(sent(model.requests[before]!)[1]!.content).toContain('the database schema');
    expect(compressedEvents(events)).toMatchObject([{ reason: 'manual', compressions: 1 }]);

    const short = setup({}, [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
    expect(await short.agent.compact()).toBeUndefined();
    expect(model.requests.length).toBe(before + 1);
  });
});
