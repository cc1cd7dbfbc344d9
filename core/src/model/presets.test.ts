// The preset table: names and aliases, and every openai-chat preset reaching the scripted server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { createModelClient } from './client.js';
import { ModelError } from './errors.js';
import {
  closestProviderIds,
  normalizeProviderName,
  PROVIDER_IDS,
  PROVIDER_PRESETS,
  presetFor,
} from './presets.js';
import { resolveTarget } from './providers.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer({ whenEmpty: { text: 'pong' } });
});
afterAll(() => server.close());

const user = { messages: [{ role: 'user' as const, content: 'ping' }], tools: [] };
const callable = PROVIDER_PRESETS.filter((p) => !p.unsupported && p.wire === 'openai-chat');

/** A fetch that records the URL asked for and sends it to the scripted server instead. */
function redirectFetch(from: string, seen: string[]): typeof fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    seen.push(url);
    return fetch(url.replace(from, server.url), init);
  };
}

describe('provider presets: the table', () => {
  it('has unique ids and names, each alias mapping to one preset', () => {
    expect(new Set(PROVIDER_IDS).size).toBe(PROVIDER_IDS.length);
    const names = PROVIDER_PRESETS.flatMap((p) => [p.id, ...p.aliases]);
    expect(new Set(names).size).toBe(names.length);
    for (const p of PROVIDER_PRESETS) {
      expect(p.id).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
      if (!p.unsupported && !p.local && p.id !== 'azure-foundry') expect(p.baseURL).toMatch(/^https:\/\//);
      if (p.local) expect(p.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      if (!p.local && !p.unsupported) expect(p.keyVars.length).toBeGreaterThan(0);
    }
  });

  it("accepts the original's provider ids and aliases, in any case", () => {
    const cases: Record<string, string> = {
      deepseek: 'deepseek',
      glm: 'zai',
      'Z.AI': 'zai',
      kimi: 'kimi-coding',
      'kimi-coding': 'kimi-coding',
      moonshot: 'kimi-coding',
      lmstudio: 'lmstudio',
      lm_studio: 'lmstudio',
      'llama.cpp': 'llamacpp',
      qwen: 'alibaba',
      dashscope: 'alibaba',
      hf: 'huggingface',
      grok: 'xai',
      claude: 'anthropic',
      copilot: 'copilot',
      aws: 'bedrock',
      local: 'custom',
      AUTO: 'auto',
    };
    for (const [name, id] of Object.entries(cases)) expect(normalizeProviderName(name), name).toBe(id);
    expect(normalizeProviderName('deepseak')).toBeUndefined();
    expect(closestProviderIds('deepseak')).toContain('deepseek');
  });

  it('config.yaml: an alias loads as the canonical id; an unknown one names the key and the closest ids', () => {
    const c = ConfigSchema.parse({ model: { provider: 'glm' }, fallback_providers: [{ provider: 'kimi' }] });
    expect(c.model.provider).toBe('zai');
    expect(c.fallback_providers[0]!.provider).toBe('kimi-coding');
    const bad = ConfigSchema.safeParse({ model: { provider: 'deepseak' } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path).toEqual(['model', 'provider']);
    expect(bad.error!.issues[0]!.message).toMatch(/unknown provider "deepseak".*"deepseek"/);
    const auto = ConfigSchema.safeParse({ fallback_providers: [{ provider: 'auto' }] });
    expect(auto.success).toBe(false);
  });

  it('a provider the original reaches only by OAuth or AWS is refused with the reason, never called', () => {
    for (const id of ['copilot', 'openai-codex', 'bedrock', 'google-gemini-cli']) {
      let err: unknown;
      try {
        resolveTarget({ provider: id }, 'm', { secrets: {}, env: { GH_TOKEN: 'x' } });
      } catch (e) {
        err = e;
      }
      expect(err, id).toBeInstanceOf(ModelError);
      expect((err as ModelError).message).toContain(`Provider "${id}"`);
      expect((err as ModelError).message).toMatch(/not supported|does not do/);
    }
  });

  it('a missing key names every variable the preset reads and the .env file', () => {
    expect(() =>
      resolveTarget({ provider: 'zai' }, 'm', { secrets: {}, env: {}, envFile: '/h/.env' }),
    ).toThrow(/GLM_API_KEY or ZAI_API_KEY or Z_AI_API_KEY in \/h\/\.env/);
    // the second variable is used when only it is set
    const t = resolveTarget({ provider: 'zai' }, 'm', { secrets: { ZAI_API_KEY: 'k' }, env: {} });
    expect(t).toMatchObject({ keyVar: 'ZAI_API_KEY', baseURL: 'https://api.z.ai/api/paas/v4' });
  });
});

describe('provider presets: each reaches the scripted server', () => {
  it.each(callable.map((p) => [p.id, p] as const))(
    '%s: base_url overridden → Bearer key (or none when local) and its headers',
    async (id, preset) => {
      const before = server.requests.length;
      const keyVar = preset.keyVars[0];
      const secrets = keyVar ? { [keyVar]: `key-${id}` } : {};
      const config = ConfigSchema.parse({
        model: { provider: id, base_url: server.url, default: `model-${id}` },
      });
      const client = createModelClient({ config, secrets, env: {}, sleep: async () => {} });
      const r = await client.stream(user, {});
      expect(r.text).toBe('pong');
      const req = server.requests[before]!;
      expect(req.path).toBe('/v1/chat/completions');
      expect(req.body).toMatchObject({ model: `model-${id}` });
      expect(req.headers.authorization).toBe(keyVar ? `Bearer key-${id}` : undefined);
      for (const [h, v] of Object.entries(preset.headers ?? {})) expect(req.headers[h.toLowerCase()]).toBe(v);
    },
  );

  it.each(callable.filter((p) => p.baseURL).map((p) => [p.id, p] as const))(
    '%s: its default base URL gets /chat/completions',
    async (id, preset) => {
      const seen: string[] = [];
      const keyVar = preset.keyVars[0];
      const config = ConfigSchema.parse({ model: { provider: id, default: 'm' } });
      const client = createModelClient({
        config,
        secrets: keyVar ? { [keyVar]: 'k' } : {},
        env: {},
        sleep: async () => {},
        fetch: redirectFetch(preset.baseURL, seen),
      });
      await client.stream(user, {});
      expect(seen).toEqual([`${preset.baseURL}/chat/completions`]);
    },
  );

  it("the original's base-URL variable (DEEPSEEK_BASE_URL …) moves a preset; model.base_url wins over it", () => {
    const deepseek = presetFor('deepseek')!;
    expect(deepseek.baseUrlVar).toBe('DEEPSEEK_BASE_URL');
    const ctx = { secrets: { DEEPSEEK_API_KEY: 'k', DEEPSEEK_BASE_URL: 'http://127.0.0.1:9/v1' }, env: {} };
    expect(resolveTarget({ provider: 'deepseek' }, 'm', ctx).baseURL).toBe('http://127.0.0.1:9/v1');
    expect(resolveTarget({ provider: 'deepseek', base_url: 'http://127.0.0.1:8/v1' }, 'm', ctx).baseURL).toBe(
      'http://127.0.0.1:8/v1',
    );
  });

  it('a local preset sends a key only when api_key_env names one that is set', () => {
    const none = resolveTarget({ provider: 'ollama' }, 'm', { secrets: {}, env: {} });
    expect(none).toMatchObject({ keys: [], baseURL: 'http://127.0.0.1:11434/v1' });
    const keyed = resolveTarget({ provider: 'vllm', api_key_env: 'MY_VLLM' }, 'm', {
      secrets: { MY_VLLM: 's' },
      env: {},
    });
    expect(keyed).toMatchObject({ keyVar: 'MY_VLLM' });
    expect(() =>
      resolveTarget({ provider: 'vllm', api_key_env: 'MY_VLLM' }, 'm', { secrets: {}, env: {} }),
    ).toThrow(/MY_VLLM/);
  });
});
