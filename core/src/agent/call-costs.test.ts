/**
 * A scripted turn with known usage (cached tokens included) costs exactly what the price table
 * says: on `message.complete`, summed in `session.usage` and the turn's result, and stored with the
 * assistant message in `model_calls`.
 */
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { createModelClient } from '../model/client.js';
import type { AgentEvent } from '../protocol/events.js';
import { storedSessionCost } from './call-costs.js';
import { useTestAgents } from './testing.js';

const agents = useTestAgents();

/** An agent on a hosted provider (`openai`, its base URL pointed at the scripted server). */
function hostedAgent(model: string, extra: Record<string, unknown> = {}) {
  const modelSection = { provider: 'openai', base_url: agents.model.url, default: model, ...extra };
  const config = ConfigSchema.parse({ model: modelSection });
  return agents.create({
    model: modelSection,
    agent: { model: createModelClient({ config, secrets: { OPENAI_API_KEY: 'sk-test' } }) },
  });
}

const KNOWN_USAGE = {
  prompt_tokens: 10_000,
  completion_tokens: 500,
  prompt_tokens_details: { cached_tokens: 6_000 },
};
const payloads = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e) => e.type === type).map((e) => e.payload as Extract<AgentEvent, { type: T }>['payload']);

describe('cost of a scripted turn', () => {
  it('gpt-4o: 4,000 uncached × $2.50 + 6,000 cached × $1.25 + 500 out × $10 per million = $0.0225', async () => {
    const t = hostedAgent('gpt-4o');
    agents.model.push({ text: 'Hi!', usage: KNOWN_USAGE }, { text: 'Again', usage: KNOWN_USAGE });
    const r = await t.agent.runTurn('hello');
    const [complete] = payloads(t.events, 'message.complete');
    expect(complete!.usage).toMatchObject({ cached_tokens: 6_000, cost_usd: 0.0225, cost_status: 'priced' });
    expect(r.usage).toMatchObject({ prompt_tokens: 10_000, cost_usd: 0.0225, cost_status: 'priced' });
    expect(payloads(t.events, 'session.usage').at(-1)).toMatchObject({
      usage: { cost_usd: 0.0225 },
      session_cost_usd: 0.0225,
      session_cost_status: 'priced',
    });

    // stored with its message; the session's counters and cost sum across turns
    const reply = t.db.getMessages(t.session.id).find((m) => m.role === 'assistant')!;
    expect(t.db.modelCalls.messageUsage(t.session.id).get(reply.id)).toMatchObject({
      prompt_tokens: 10_000,
      cached_tokens: 6_000,
      completion_tokens: 500,
      cost_micros: 22_500,
      cost_status: 'priced',
      model: 'gpt-4o',
    });
    await t.agent.runTurn('again');
    expect(payloads(t.events, 'session.usage').at(-1)).toMatchObject({ session_cost_usd: 0.045 });
    expect(t.db.getSession(t.session.id)).toMatchObject({ prompt_tokens: 20_000, completion_tokens: 1_000 });
    expect(storedSessionCost(t.db, t.db.getSession(t.session.id)!)).toEqual({
      micros: 45_000,
      priced: 2,
      local: 0,
      unknown: 0,
    });
  });

  it('Anthropic direct: cache reads and writes priced apart (claude-sonnet-4-5: 3 / 15 / 0.30 / 3.75)', async () => {
    const modelSection = { provider: 'anthropic', base_url: agents.model.url, default: 'claude-sonnet-4-5' };
    const config = ConfigSchema.parse({ model: modelSection });
    const t = agents.create({
      model: modelSection,
      agent: { model: createModelClient({ config, secrets: { ANTHROPIC_API_KEY: 'sk-ant-test' } }) },
    });
    agents.model.push({
      text: 'Cached!',
      anthropicUsage: {
        input_tokens: 3_000,
        cache_read_input_tokens: 6_000,
        cache_creation_input_tokens: 1_000,
        output_tokens: 500,
      },
    });
    await t.agent.runTurn('hello');
    // prompt 10,000 = 3,000 + 6,000 read + 1,000 written:
    // 3,000 × $3 + 6,000 × $0.30 + 1,000 × $3.75 + 500 × $15 per million = 22,050 µ$
    expect(payloads(t.events, 'message.complete')[0]!.usage).toMatchObject({
      prompt_tokens: 10_000,
      cached_tokens: 6_000,
      cache_write_tokens: 1_000,
      cost_usd: 0.02205,
      cost_status: 'priced',
    });
  });

  it('an unknown hosted model says unknown and gives no number', async () => {
    const t = hostedAgent('mystery-model-9000');
    agents.model.push({ text: 'Hi!', usage: KNOWN_USAGE });
    await t.agent.runTurn('hello');
    const [complete] = payloads(t.events, 'message.complete');
    expect(complete!.usage.cost_status).toBe('unknown');
    expect(complete!.usage).not.toHaveProperty('cost_usd');
    expect(payloads(t.events, 'session.usage').at(-1)).toMatchObject({ session_cost_status: 'unknown' });
    expect(payloads(t.events, 'session.usage').at(-1)).not.toHaveProperty('session_cost_usd');
  });

  it('a local server costs nothing and says local; model.pricing prices it', async () => {
    const local = agents.create();
    agents.model.push({ text: 'Hi!', usage: KNOWN_USAGE });
    await local.agent.runTurn('hello');
    expect(payloads(local.events, 'message.complete')[0]!.usage).toMatchObject({
      cost_usd: 0,
      cost_status: 'local',
    });

    const priced = agents.create({ model: { pricing: { input: 1, output: 2, cache_read: 0.5 } } });
    agents.model.push({ text: 'Hi!', usage: KNOWN_USAGE });
    await priced.agent.runTurn('hello');
    // 4,000 × $1 + 6,000 × $0.50 + 500 × $2 = 8,000 µ$
    expect(payloads(priced.events, 'message.complete')[0]!.usage).toMatchObject({
      cost_usd: 0.008,
      cost_status: 'priced',
    });
  });
});
