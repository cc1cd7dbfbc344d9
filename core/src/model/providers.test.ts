// Provider resolution, context windows and cache breakpoints.
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { applyCacheBreakpoints } from './cache-control.js';
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from './context-windows.js';
import { ModelError } from './errors.js';
import { endpointBase, resolveFallbacks, resolvePrimary, resolveTarget } from './providers.js';
import type { ChatMessage } from './types.js';

const ctx = (secrets: Record<string, string> = {}, env: Record<string, string> = {}) => ({
  secrets,
  env,
  envFile: '/h/.env',
});

describe('providers', () => {
  it('a key holding a character no key has (zero-width space) is an auth error naming the variable, not the key', () => {
    const msg = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(ModelError);
        expect((e as ModelError).kind).toBe('auth');
        return (e as Error).message;
      }
      return 'no error';
    };
    const bad = msg(() =>
      resolveTarget({ provider: 'anthropic' }, 'm', ctx({ ANTHROPIC_API_KEY: 'sk-ant\u200bsecret' })),
    );
    expect(bad).toMatch(/key in ANTHROPIC_API_KEY holds the character U\+200B at position 7.*\/h\/\.env/);
    expect(bad).not.toContain('secret');
    expect(
      msg(() => resolveTarget({ provider: 'auto' }, 'm', ctx({ OPENROUTER_API_KEY: 'a,b\u00a0c' }))),
    ).toMatch(/OPENROUTER_API_KEY\[2\] holds the character U\+00A0/);
    expect(
      resolveTarget({ provider: 'deepseek' }, 'm', ctx({ DEEPSEEK_API_KEY: 'sk-fine_1.2' })).keys,
    ).toHaveLength(1);
  });

  it('a pasted full endpoint URL (…/chat/completions, …/v1/messages) becomes the base the SDK wants', () => {
    expect(endpointBase('http://127.0.0.1:11434/v1/chat/completions/', 'openai-chat')).toBe(
      'http://127.0.0.1:11434/v1',
    );
    expect(endpointBase('https://api.anthropic.com/v1/messages', 'anthropic-messages')).toBe(
      'https://api.anthropic.com/v1',
    );
    expect(endpointBase('https://x.test/v1/', 'openai-chat')).toBe('https://x.test/v1');
    const custom = resolveTarget(
      { provider: 'custom', base_url: 'http://127.0.0.1:8080/v1/chat/completions' },
      'm',
      ctx(),
    );
    expect(custom.baseURL).toBe('http://127.0.0.1:8080/v1');
    const claude = resolveTarget(
      { provider: 'anthropic', base_url: 'https://proxy.test/v1/messages' },
      'm',
      ctx({ ANTHROPIC_API_KEY: 'k' }),
    );
    expect(claude.baseURL).toBe('https://proxy.test/v1');
  });

  it('auto picks openrouter, then openai, then custom with base_url, each on its own endpoint', () => {
    const both = resolveTarget(
      { provider: 'auto', base_url: 'http://127.0.0.1:1/v1' },
      'm',
      ctx({ OPENROUTER_API_KEY: 'a' }, { OPENAI_API_KEY: 'b' }),
    );
    expect(both).toMatchObject({
      provider: 'openrouter',
      baseURL: 'https://openrouter.ai/api/v1',
      keyVar: 'OPENROUTER_API_KEY',
    });
    const openai = resolveTarget({ provider: 'auto' }, 'm', ctx({}, { OPENAI_API_KEY: 'b' }));
    expect(openai).toMatchObject({ provider: 'openai', baseURL: 'https://api.openai.com/v1' });
    const local = resolveTarget({ provider: 'auto', base_url: 'http://127.0.0.1:1/v1' }, 'm', ctx());
    expect(local).toMatchObject({ provider: 'custom', baseURL: 'http://127.0.0.1:1/v1', keys: [] });
  });

  it('explains what is missing: no provider, no key, no base_url, an empty api_key_env', () => {
    const msg = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(ModelError);
        return (e as ModelError).message;
      }
      throw new Error('did not throw');
    };
    expect(msg(() => resolveTarget({ provider: 'auto' }, 'm', ctx()))).toMatch(
      /OPENROUTER_API_KEY.*OPENAI_API_KEY.*\/h\/\.env/,
    );
    expect(msg(() => resolveTarget({ provider: 'openai' }, 'm', ctx()))).toMatch(
      /"openai".*OPENAI_API_KEY.*\/h\/\.env/,
    );
    expect(msg(() => resolveTarget({ provider: 'custom' }, 'm', ctx()))).toMatch(/model\.base_url/);
    expect(
      msg(() =>
        resolveTarget({ provider: 'custom', base_url: 'http://x/v1', api_key_env: 'LOCAL_KEY' }, 'm', ctx()),
      ),
    ).toMatch(/LOCAL_KEY/);
  });

  it('applies the model override to the primary and keeps unusable fallbacks as errors', () => {
    const config = ConfigSchema.parse({
      model: { provider: 'openai', default: 'gpt-4o' },
      fallback_providers: [
        { provider: 'openrouter' },
        { provider: 'openai', model: 'gpt-4.1', base_url: 'http://proxy/v1' },
      ],
    });
    expect(resolvePrimary(config, ctx({ OPENAI_API_KEY: 'k' }), 'o3').model).toBe('o3');
    const fbs = resolveFallbacks(config.fallback_providers, 'gpt-4o', ctx({ OPENAI_API_KEY: 'k' }));
    expect(fbs[0]).toBeInstanceOf(ModelError);
    expect(fbs[1]).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1',
      baseURL: 'http://proxy/v1',
      role: 'fallback 2',
    });
  });
});

describe('contextWindowFor', () => {
  it('uses the override, then the table, then the default', () => {
    const plain = ConfigSchema.parse({});
    expect(contextWindowFor('openai/gpt-4o-mini', plain)).toBe(128_000);
    expect(contextWindowFor('gpt-4.1-mini', plain)).toBe(1_047_576);
    expect(contextWindowFor('anthropic/claude-sonnet-4', plain)).toBe(200_000);
    expect(contextWindowFor('llama3.1:8b', plain)).toBe(128_000);
    expect(contextWindowFor('something-new', plain)).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(contextWindowFor('gpt-4o', ConfigSchema.parse({ model: { context_length: 32_000 } }))).toBe(
      32_000,
    );
  });
});

describe('applyCacheBreakpoints', () => {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'stable prefix' },
    { role: 'user', content: 'hi' },
  ];

  it('marks the system prompt only for anthropic models on openrouter, without mutating', () => {
    const out = applyCacheBreakpoints(messages, 'anthropic/claude-opus-4', 'openrouter');
    expect(out[0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'stable prefix', cache_control: { type: 'ephemeral' } }],
    });
    expect(out[1]).toBe(messages[1]);
    expect(messages[0]!.content).toBe('stable prefix');
    expect(applyCacheBreakpoints(out, 'anthropic/claude-opus-4', 'openrouter')).toEqual(out);
    expect(applyCacheBreakpoints(messages, 'openai/gpt-4o', 'openrouter')).toBe(messages);
    expect(applyCacheBreakpoints(messages, 'anthropic/claude-opus-4', 'custom')).toBe(messages);
  });
});
