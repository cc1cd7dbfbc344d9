import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { definePlatform, parseSettings } from './define-platform.js';
import { testPlatformContext } from './plugin-testing.js';
import { PlatformRegistry } from './registry.js';
import { MemoryAdapter } from './testing.js';

const demo = definePlatform({
  name: 'demo',
  label: 'Demo',
  settings: z.object({
    server: z.string().min(1),
    port: z.number().int().min(1).max(65535).default(6667),
    mode: z.enum(['a', 'b']).default('a'),
    channels: z.array(z.string().startsWith('#', { error: 'expected a channel name' })).default([]),
  }),
  secrets: z.object({
    DEMO_TOKEN: z.string().min(8),
    DEMO_EXTRA: z.string().optional(),
  }),
  createAdapter: ({ settings, secrets }) => {
    const a = new MemoryAdapter('demo');
    Object.assign(a, { seen: { settings, secrets } });
    return a;
  },
  maxMessageLength: 300,
});

const secrets = { DEMO_TOKEN: 'secret-token' };

describe('definePlatform', () => {
  it('names the key of a wrong setting: platforms.<name>.<key>: <problem>', () => {
    const check = (config: Record<string, unknown>) =>
      demo.validateConfig!(testPlatformContext({ config: { server: 'x', ...config }, secrets }));
    expect(check({ port: 'abc' })).toBe('platforms.demo.port: expected a number');
    expect(check({ port: 70000 })).toBe('platforms.demo.port: must be at most 65535');
    expect(check({ port: 1.5 })).toBe('platforms.demo.port: expected a whole number');
    expect(check({ mode: 'c' })).toBe('platforms.demo.mode: must be one of "a", "b"');
    expect(check({ channels: ['#ok', 'bad'] })).toBe('platforms.demo.channels[1]: expected a channel name');
    expect(check({ channels: '#one' })).toBe('platforms.demo.channels: expected a list');
    expect(demo.validateConfig!(testPlatformContext({ config: { port: 'abc' }, secrets }))).toBe(
      'platforms.demo.server is not set; platforms.demo.port: expected a number',
    );
    expect(check({})).toBe(true);
  });

  it('checks the declared secrets, naming the .env variable; lists them as required secrets', () => {
    expect(demo.checkRequirements!(testPlatformContext({ secrets: {} }))).toBe(
      'DEMO_TOKEN is not set in the profile .env',
    );
    expect(demo.checkRequirements!(testPlatformContext({ secrets: { DEMO_TOKEN: 'short' } }))).toBe(
      'DEMO_TOKEN: must be at least 8 characters',
    );
    expect(demo.checkRequirements!(testPlatformContext({ secrets }))).toBe(true);
    expect(demo.requiredSecrets).toEqual(['DEMO_TOKEN', 'DEMO_EXTRA']);
  });

  it('hands the factory parsed settings with defaults, keeps the common keys out, applies max_message_length', async () => {
    const ctx = testPlatformContext({
      config: { enabled: true, server: 'irc.example', max_message_length: 120 },
      secrets,
    });
    const adapter = (await demo.createAdapter(ctx)) as MemoryAdapter & { seen: unknown };
    expect(adapter.seen).toEqual({
      settings: { server: 'irc.example', port: 6667, mode: 'a', channels: [] },
      secrets: { DEMO_TOKEN: 'secret-token' },
    });
    expect(adapter.maxMessageLength).toBe(120);
  });

  it('fails in the registry stage that names the problem: check for secrets, config for settings', async () => {
    const registry = new PlatformRegistry();
    registry.register(demo);
    const noToken = await registry.createAdapter('demo', testPlatformContext({ config: { server: 'x' } }));
    expect(noToken).toMatchObject({
      ok: false,
      stage: 'check',
      error: 'DEMO_TOKEN is not set in the profile .env',
    });
    const badPort = await registry.createAdapter(
      'demo',
      testPlatformContext({ config: { server: 'x', port: '1' }, secrets }),
    );
    expect(badPort).toMatchObject({
      ok: false,
      stage: 'config',
      error: 'platforms.demo.port: expected a number',
    });
    const good = await registry.createAdapter(
      'demo',
      testPlatformContext({ config: { server: 'x' }, secrets }),
    );
    expect(good.ok).toBe(true);
  });

  it('a schema message of its own wins over the short default', () => {
    const r = parseSettings(
      z.object({ url: z.string().url({ error: 'expected an http(s) URL' }) }),
      { url: 'x' },
      'p',
    );
    expect(r).toEqual({ ok: false, error: 'p.url: expected an http(s) URL' });
  });
});
