/**
 * The agent loop on the Anthropic Messages wire (scripted server, real SDK, real SessionDB): the
 * thinking blocks of a tool-calling answer go back unchanged with the tool results, reasoning is
 * streamed and stored, and an unsupported reasoning effort is told once, not at every turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { ConfigSchema } from '../config/schema.js';
import { createModelClient } from '../model/client.js';
import type { ToolDefinition } from '../tools/types.js';
import { createTestAgent } from './testing.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());

const lookup: ToolDefinition = {
  name: 'lookup',
  description: 'Look a word up',
  parameters: { type: 'object', properties: { word: { type: 'string' } } },
  readOnly: true,
  handler: async (args) => ({
    ok: true,
    content: `definition of ${String((args as { word?: string }).word)}`,
  }),
};

describe('Agent on the Anthropic Messages API', () => {
  it('sends the signed thinking block back with the tool results and stores the reasoning', async () => {
    const modelSection = {
      provider: 'anthropic',
      base_url: model.url,
      default: 'claude-sonnet-4-5',
      reasoning_effort: 'low',
    };
    const config = ConfigSchema.parse({ model: modelSection });
    const t = createTestAgent({
      modelUrl: model.url,
      model: modelSection,
      tools: [lookup],
      agent: { model: createModelClient({ config, secrets: { ANTHROPIC_API_KEY: 'sk-ant-agent' } }) },
    });
    const before = model.requests.length;
    model.push(
      {
        reasoning: 'Need the dictionary.',
        signature: 'sig-turn',
        toolCalls: [{ name: 'lookup', arguments: { word: 'hermes' } }],
      },
      { echo: 'last_tool_result', prefix: 'Found: ' },
    );
    const r = await t.agent.runTurn('what is hermes?');
    expect(r).toMatchObject({ status: 'complete', text: 'Found: definition of hermes' });
    const second = model.requests[before + 1]!.body;
    expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const assistant = second.messages[1];
    expect(assistant.role).toBe('assistant');
    expect(assistant.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Need the dictionary.',
      signature: 'sig-turn',
    });
    expect(assistant.content[1]).toMatchObject({
      type: 'tool_use',
      name: 'lookup',
      input: { word: 'hermes' },
    });
    expect(second.messages[2].content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: assistant.content[1].id,
      content: 'definition of hermes',
    });
    const reasoning = t.events
      .filter((e) => e.type === 'reasoning.delta')
      .map((e) => (e.payload as { text: string }).text);
    expect(reasoning.join('')).toBe('Need the dictionary.');
    const stored = t.db.getMessages(t.session.id).filter((m) => m.role === 'assistant');
    expect(stored[0]!.reasoning).toBe('Need the dictionary.');
  });

  it('tells an unsupported reasoning effort once as a notice, across turns', async () => {
    const t = createTestAgent({ modelUrl: model.url, model: { reasoning_effort: 'high' }, tools: [] });
    model.push({ text: 'one' }, { text: 'two' });
    await t.agent.runTurn('a');
    await t.agent.runTurn('b');
    const notices = t.events.filter((e) => e.type === 'error');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.payload).toMatchObject({
      kind: 'notice',
      message: expect.stringContaining('not supported'),
    });
  });

  it('falls back to Anthropic mid-turn over tool calls another provider made (ids like functions.lookup:0)', async () => {
    const primary = await startFakeModelServer();
    try {
      const config = ConfigSchema.parse({
        model: { provider: 'custom', base_url: primary.url, default: 'kimi-k2' },
        fallback_providers: [{ provider: 'anthropic', base_url: model.url, model: 'claude-sonnet-4-5' }],
      });
      const t = createTestAgent({
        modelUrl: primary.url,
        model: { provider: 'custom', base_url: primary.url, default: 'kimi-k2' },
        tools: [lookup],
        agent: {
          model: createModelClient({
            config,
            secrets: { ANTHROPIC_API_KEY: 'sk-ant-agent' },
            sleep: async () => {},
          }),
        },
      });
      // the first provider answers "\n\n" and two tool calls with Kimi-style ids, then fails
      primary.push(
        {
          text: '\n\n',
          toolCalls: [
            { id: 'functions.lookup:0', name: 'lookup', arguments: { word: 'a' } },
            { id: 'functions.lookup:1', name: 'lookup', arguments: { word: 'b' } },
          ],
        },
        { error: { status: 500 } },
        { error: { status: 500 } },
        { error: { status: 500 } },
        { error: { status: 500 } },
      );
      const before = model.requests.length;
      model.push({ echo: 'last_tool_result', prefix: 'Anthropic: ' });
      const r = await t.agent.runTurn('define a and b');
      expect(r).toMatchObject({ status: 'complete', text: 'Anthropic: definition of b' });
      const body = model.requests[before]!.body;
      const ids = body.messages[1].content.filter((b: { type: string }) => b.type === 'tool_use');
      expect(ids.map((b: { id: string }) => b.id).every((id: string) => /^[A-Za-z0-9_-]+$/.test(id))).toBe(
        true,
      );
    } finally {
      await primary.close();
    }
  });
});
