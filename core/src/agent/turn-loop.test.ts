/**
 * One user turn (turn-loop.ts) against the scripted model server with a real SessionDB: the user
 * message stored first, a partial reply kept on interrupt, the iteration budget, the overflow retry.
 */
import { describe, expect, it } from 'vitest';
import { builtinTools } from '../tools/registry.js';
import type { ToolDefinition } from '../tools/types.js';
import { useTestAgents } from './testing.js';

const agents = useTestAgents();
const setup = (tools: ToolDefinition[] = builtinTools()) => agents.create({ tools });

/** A read-only tool that does nothing. */
const noopTool: ToolDefinition = {
  name: 'noop',
  description: 'test',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  handler: () => Promise.resolve({ ok: true, content: 'noop result' }),
};

describe('the turn loop', () => {
  it('persists the user message before the model is called', async () => {
    const { agent, db, session } = setup();
    let seenInDb = false;
    agents.model.push((req) => {
      void req;
      seenInDb = db.getMessages(session.id).some((m) => m.role === 'user' && m.content === 'persist me');
      return { text: 'ok' };
    });
    await agent.runTurn('persist me');
    expect(seenInDb).toBe(true);
  });

  it('stores the partial reply while it streams and marks it interrupted on abort within 1 s', async () => {
    const { agent, db, session, events } = setup();
    agents.model.push({ hang: true, text: 'streaming words that never end' });
    const ctl = new AbortController();
    const turn = agent.runTurn('tell me', ctl.signal);
    const deadline = Date.now() + 5_000;
    while (!events.some((e) => e.type === 'message.delta') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    // the checkpoint row exists while streaming
    const deadline2 = Date.now() + 5_000;
    while (!db.getMessages(session.id).some((m) => m.status === 'streaming') && Date.now() < deadline2) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(db.getMessages(session.id).find((m) => m.role === 'assistant')?.status).toBe('streaming');
    const t0 = performance.now();
    ctl.abort();
    const r = await turn;
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(r.status).toBe('interrupted');
    const reply = db.getMessages(session.id).filter((m) => m.role === 'assistant');
    expect(reply).toHaveLength(1);
    expect(reply[0]).toMatchObject({ status: 'interrupted', content: 'streaming words that never end' });
  });

  it('stops at agent.max_turns', async () => {
    const { agent } = setup([noopTool]);
    (agent as unknown as { opts: { config: { agent: { max_turns: number } } } }).opts.config.agent.max_turns =
      2;
    agents.model.push({ toolCalls: [{ name: 'noop' }] }, { toolCalls: [{ name: 'noop' }] });
    const r = await agent.runTurn('loop');
    expect(r.status).toBe('max_turns');
  });

  it('drops the oldest turns and retries once on a context overflow when compressing fails', async () => {
    const { agent } = setup();
    for (let i = 0; i < 4; i++) {
      agents.model.push({ text: `answer ${i}` });
      await agent.runTurn(`question ${i}`);
    }
    const before = agents.model.requests.length;
    // the overflow, then the summary call of the compressor fails, then the shrunk retry
    agents.model.push(
      { error: { status: 413 } },
      { error: { status: 400, message: 'no' } },
      { text: 'fits now' },
    );
    const r = await agent.runTurn('one more');
    expect(r).toMatchObject({ status: 'complete', text: 'fits now' });
    expect(agent.compressions).toBe(0);
    const retried = (agents.model.requests[before + 2]!.body as { messages: unknown[] }).messages;
    const first = (agents.model.requests[before]!.body as { messages: unknown[] }).messages;
    expect(retried.length).toBeLessThan(first.length);
  });
});
