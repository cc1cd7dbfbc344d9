// Reasoning effort in the recorded requests of every API (OpenAI chat, OpenRouter, Anthropic), and
// the one-time notice for a provider that does not take it.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { ConfigSchema } from '../config/schema.js';
import { createModelClient } from './client.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function server(): Promise<FakeModelServer> {
  const s = await startFakeModelServer();
  servers.push(s);
  return s;
}
const ask = (reasoningEffort?: 'none' | 'low' | 'medium' | 'high') => ({
  messages: [{ role: 'user' as const, content: 'hi' }],
  tools: [],
  ...(reasoningEffort ? { reasoningEffort } : {}),
});
function client(model: Record<string, unknown>) {
  return createModelClient({
    config: ConfigSchema.parse({ model }),
    secrets: { OPENAI_API_KEY: 'sk-o', OPENROUTER_API_KEY: 'sk-or', ANTHROPIC_API_KEY: 'sk-ant' },
    env: {},
    sleep: async () => {},
  });
}

describe('reasoning effort on the wire', () => {
  it('OpenAI chat: reasoning_effort from model.reasoning_effort, overridden per request', async () => {
    const s = await server();
    const c = client({ provider: 'openai', base_url: s.url, default: 'o4-mini', reasoning_effort: 'low' });
    await c.stream(ask());
    await c.stream(ask('high'));
    expect(s.requests[0]!.body.reasoning_effort).toBe('low');
    expect(s.requests[1]!.body.reasoning_effort).toBe('high');
    expect(s.requests[0]!.body.reasoning).toBeUndefined();
  });

  it('unset: nothing is sent', async () => {
    const s = await server();
    await client({ provider: 'openai', base_url: s.url, default: 'o4-mini' }).stream(ask());
    expect(s.requests[0]!.body).not.toHaveProperty('reasoning_effort');
  });

  it('OpenRouter: reasoning {effort}, and {enabled: false} for none', async () => {
    const s = await server();
    const c = client({ provider: 'openrouter', base_url: s.url, default: 'deepseek/deepseek-r1' });
    await c.stream(ask('medium'));
    await c.stream(ask('none'));
    expect(s.requests[0]!.body.reasoning).toEqual({ effort: 'medium' });
    expect(s.requests[1]!.body.reasoning).toEqual({ enabled: false });
    expect(s.requests[0]!.body).not.toHaveProperty('reasoning_effort');
  });

  it('Anthropic: a thinking budget per level; none sends no thinking', async () => {
    const s = await server();
    const c = client({ provider: 'anthropic', base_url: s.url, default: 'claude-sonnet-4-5' });
    await c.stream(ask('high'));
    await c.stream(ask('none'));
    expect(s.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 });
    expect(s.requests[0]!.body.max_tokens).toBeGreaterThan(24576);
    expect(s.requests[1]!.body).not.toHaveProperty('thinking');
  });

  it('an unsupported provider gets requests without it and one notice, not one per call', async () => {
    const s = await server();
    const c = client({ provider: 'custom', base_url: s.url, default: 'llama3', reasoning_effort: 'high' });
    const notices: string[] = [];
    for (let i = 0; i < 3; i++) await c.stream(ask(), { onNotice: (m) => notices.push(m) });
    expect(s.requests.map((r) => 'reasoning_effort' in r.body || 'reasoning' in r.body)).toEqual([
      false,
      false,
      false,
    ]);
    expect(notices).toEqual([
      'Reasoning effort "high" is not supported by custom (model llama3); requests go without it (model.reasoning_effort, /reasoning).',
    ]);
  });
});
