// The provider catalog: statuses, model lists, key checks, `provider/model` parsing, switch edits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import {
  applyEdits,
  checkProviderKey,
  effectiveProvider,
  listProviderModels,
  modelIdProblem,
  parseModelSpec,
  providerStatuses,
  switchEdits,
} from './catalog.js';
import { presetFor } from './presets.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer({ apiKey: 'good', models: ['deepseek-chat', 'deepseek-reasoner'] });
});
afterAll(() => server.close());

const cfg = (model: Record<string, unknown>) => ConfigSchema.parse({ model });

describe('provider catalog', () => {
  it('statuses: key set or not (never the value), local and unsupported kinds, the current one', () => {
    const list = providerStatuses(cfg({ provider: 'zai' }), { ZAI_API_KEY: 'secret' }, {});
    const zai = list.find((p) => p.id === 'zai')!;
    expect(zai).toMatchObject({ keySet: true, keyVar: 'ZAI_API_KEY', current: true, kind: 'hosted' });
    expect(JSON.stringify(list)).not.toContain('secret');
    expect(list.find((p) => p.id === 'ollama')).toMatchObject({ kind: 'local', keySet: false });
    expect(list.find((p) => p.id === 'bedrock')).toMatchObject({ kind: 'unsupported' });
    expect(list.at(-1)!.kind).toBe('unsupported');
  });

  it("lists a provider's models from its endpoint, else its default list with the reason", async () => {
    const config = cfg({ provider: 'deepseek', base_url: server.url });
    const ok = await listProviderModels('deepseek', {
      config,
      secrets: { DEEPSEEK_API_KEY: 'good' },
      env: {},
    });
    expect(ok).toEqual({
      provider: 'deepseek',
      models: ['deepseek-chat', 'deepseek-reasoner'],
      source: 'endpoint',
    });
    const refused = await listProviderModels('deepseek', {
      config,
      secrets: { DEEPSEEK_API_KEY: 'bad' },
      env: {},
    });
    expect(refused).toMatchObject({ source: 'defaults', models: presetFor('deepseek')!.defaultModels });
    expect(refused.error).toMatch(/HTTP 401/);
    const nokey = await listProviderModels('deepseek', { config, secrets: {}, env: {} });
    expect(nokey.error).toMatch(/DEEPSEEK_API_KEY/);
    const noEndpoint = await listProviderModels('minimax', { config, secrets: {}, env: {} });
    expect(noEndpoint).toMatchObject({ source: 'defaults', models: ['MiniMax-M2'] });
    await expect(listProviderModels('copilot', { config, secrets: {}, env: {} })).rejects.toThrow(/OAuth/);
  });

  it('checks a key with one GET /models: ok, rejected (401), unreachable', async () => {
    const deepseek = presetFor('deepseek')!;
    expect((await checkProviderKey(deepseek, 'good', { baseURL: server.url })).result).toBe('ok');
    const bad = await checkProviderKey(deepseek, 'wrong-key-123', { baseURL: server.url });
    expect(bad.result).toBe('rejected');
    expect(bad.detail).not.toContain('wrong-key-123');
    const gone = await checkProviderKey(deepseek, 'k', { baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 2000 });
    expect(gone.result).toBe('unreachable');
    const auth = server.requests.filter((r) => r.path === '/v1/models').map((r) => r.headers.authorization);
    expect(auth).toContain('Bearer good');
  });

  it('a key check goes to …/models also when the base URL was written with /v1 or as the full endpoint', async () => {
    const urls: string[] = [];
    const fetchStub = (async (url: string) => {
      urls.push(url);
      return new Response('{"data":[]}', { status: 200 });
    }) as unknown as typeof fetch;
    const anthropic = presetFor('anthropic')!;
    for (const baseURL of ['https://a.test', 'https://a.test/v1', 'https://a.test/v1/messages'])
      await checkProviderKey(anthropic, 'k', { baseURL, fetch: fetchStub });
    await checkProviderKey(presetFor('deepseek')!, 'k', {
      baseURL: 'https://d.test/v1/chat/completions',
      fetch: fetchStub,
    });
    expect(urls).toEqual([
      'https://a.test/v1/models',
      'https://a.test/v1/models',
      'https://a.test/v1/models',
      'https://d.test/v1/models',
    ]);
  });

  it('reads provider/model: a provider prefix switches, an aggregator keeps its vendor/model ids', () => {
    expect(parseModelSpec('deepseek/deepseek-chat', 'openai')).toEqual({
      provider: 'deepseek',
      model: 'deepseek-chat',
    });
    expect(parseModelSpec('glm/glm-4.6', 'openai')).toEqual({ provider: 'zai', model: 'glm-4.6' });
    expect(parseModelSpec('gpt-4o', 'openai')).toEqual({ model: 'gpt-4o' });
    expect(parseModelSpec('meta-llama/llama-3', 'openai')).toEqual({ model: 'meta-llama/llama-3' });
    // on OpenRouter, vendor/model is OpenRouter's model …
    expect(parseModelSpec('anthropic/claude-sonnet-4.5', 'openrouter')).toEqual({
      model: 'anthropic/claude-sonnet-4.5',
    });
    // … its own id, a local server or another aggregator switch
    expect(parseModelSpec('openrouter/anthropic/claude-sonnet-4.5', 'openrouter')).toEqual({
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
    });
    expect(parseModelSpec('ollama/llama3.1', 'openrouter')).toEqual({
      provider: 'ollama',
      model: 'llama3.1',
    });
    expect(parseModelSpec('anthropic/claude-x', 'openrouter', true)).toEqual({
      provider: 'anthropic',
      model: 'claude-x',
    });
    expect(() => parseModelSpec('nope/x', 'openai', true)).toThrow(/unknown provider "nope"/);
    // a provider in odd case with spaces around the slash
    expect(parseModelSpec('  DeepSeek / deepseek-chat ', 'openai')).toEqual({
      provider: 'deepseek',
      model: 'deepseek-chat',
    });
    expect(parseModelSpec('Anthropic / claude-x', 'openai', true)).toEqual({
      provider: 'anthropic',
      model: 'claude-x',
    });
  });

  it('a model id with whitespace or a control character is refused, naming the character', () => {
    for (const ok of ['gpt-5', 'anthropic/claude-sonnet-4.5', 'qwen2.5:7b', 'meta-llama/Llama-3.1-8B@q4'])
      expect(modelIdProblem(ok)).toBeUndefined();
    expect(modelIdProblem('gpt 5')).toMatch(/U\+0020/);
    expect(modelIdProblem('gpt-5\t')).toMatch(/U\+0009/);
    expect(modelIdProblem('gpt-5\u200b')).toMatch(/U\+200B/);
    expect(modelIdProblem('gpt\u00005')).toMatch(/"gpt\?5"/);
  });

  it('switch edits: provider and model; the old base_url/api_key_env go with the old provider', () => {
    const config = cfg({
      provider: 'custom',
      base_url: 'http://127.0.0.1:1/v1',
      api_key_env: 'X',
      default: 'llama',
    });
    const edits = switchEdits(config, { provider: 'deepseek', model: '' });
    expect(edits).toEqual([
      { key: 'model.provider', value: 'deepseek' },
      { key: 'model.base_url' },
      { key: 'model.api_key_env' },
      { key: 'model.default', value: 'deepseek-chat' },
    ]);
    expect(applyEdits(config, edits).model).toMatchObject({ provider: 'deepseek', default: 'deepseek-chat' });
    expect(applyEdits(config, edits).model.base_url).toBeUndefined();
    // same provider: only the model; base_url stays
    const same = cfg({ provider: 'deepseek', base_url: 'http://127.0.0.1:1/v1', default: 'deepseek-chat' });
    expect(switchEdits(same, { model: 'deepseek-reasoner' })).toEqual([
      { key: 'model.default', value: 'deepseek-reasoner' },
    ]);
  });

  it('the provider in use: auto names the one it picks, so vendor/model on OpenRouter stays its model', () => {
    const auto = cfg({});
    expect(effectiveProvider(auto, { OPENROUTER_API_KEY: 'k' }, {})).toBe('openrouter');
    expect(effectiveProvider(auto, {}, { OPENAI_API_KEY: 'k' })).toBe('openai');
    expect(effectiveProvider(auto, {}, {})).toBe('auto');
    expect(effectiveProvider(cfg({ provider: 'glm' }), {}, {})).toBe('zai');
    const current = effectiveProvider(auto, { OPENROUTER_API_KEY: 'k' }, {});
    expect(parseModelSpec('anthropic/claude-sonnet-4.5', current)).toEqual({
      model: 'anthropic/claude-sonnet-4.5',
    });
  });
});
