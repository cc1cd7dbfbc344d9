import { describe, expect, it } from 'vitest';
import { ConfigSchema, defaultConfig } from '../../config/schema.js';
import { laneOfSource, resolveSandboxPolicy } from './policy.js';

describe('laneOfSource', () => {
  it('maps sources to lanes', () => {
    expect(laneOfSource('tui')).toBe('tui');
    expect(laneOfSource('cli')).toBe('tui');
    expect(laneOfSource('cron')).toBe('cron');
    expect(laneOfSource('api_server')).toBe('api');
    expect(laneOfSource('telegram')).toBe('platforms');
    expect(laneOfSource('webhook')).toBe('platforms');
    expect(laneOfSource('gateway')).toBe('platforms');
  });
});

describe('resolveSandboxPolicy', () => {
  it('defaults: tui off, unattended lanes workspace when available, off when not', () => {
    const c = defaultConfig();
    expect(resolveSandboxPolicy(c, 'tui', true)).toMatchObject({
      mode: 'off',
      explicit: false,
      fallback: 'ask',
    });
    for (const lane of ['platforms', 'cron', 'api'] as const) {
      expect(resolveSandboxPolicy(c, lane, true)).toMatchObject({
        mode: 'workspace',
        network: true,
        fallback: 'refuse',
      });
      expect(resolveSandboxPolicy(c, lane, false).mode).toBe('off');
    }
  });

  it('one mode for every lane, or per lane; an explicit mode stays when unavailable', () => {
    const all = ConfigSchema.parse({ terminal: { sandbox: 'strict', network: 'on' } });
    expect(resolveSandboxPolicy(all, 'tui', false)).toMatchObject({
      mode: 'strict',
      network: false,
      explicit: true,
    });
    const per = ConfigSchema.parse({
      terminal: { sandbox: { tui: 'workspace', cron: 'off' }, network: 'off' },
    });
    expect(resolveSandboxPolicy(per, 'tui', true)).toMatchObject({ mode: 'workspace', network: false });
    expect(resolveSandboxPolicy(per, 'cron', true).mode).toBe('off');
    expect(resolveSandboxPolicy(per, 'api', true)).toMatchObject({ mode: 'workspace', explicit: false });
  });

  it('sandbox_fallback overrides the lane default', () => {
    const c = ConfigSchema.parse({ terminal: { sandbox_fallback: 'refuse' } });
    expect(resolveSandboxPolicy(c, 'tui', true).fallback).toBe('refuse');
  });

  it('asks whether the sandbox is available only when a default depends on it', () => {
    let asked = 0;
    const probe = () => (asked++, true);
    resolveSandboxPolicy(defaultConfig(), 'tui', probe);
    resolveSandboxPolicy(ConfigSchema.parse({ terminal: { sandbox: 'off' } }), 'cron', probe);
    expect(asked).toBe(0);
    resolveSandboxPolicy(defaultConfig(), 'cron', probe);
    expect(asked).toBe(1);
  });

  it('refuses bad values naming the key', () => {
    expect(() => ConfigSchema.parse({ terminal: { sandbox: 'docker' } })).toThrow(/sandbox/);
    expect(() => ConfigSchema.parse({ terminal: { sandbox: { tuii: 'off' } } })).toThrow(/tuii|sandbox/);
    expect(() => ConfigSchema.parse({ terminal: { network: 'maybe' } })).toThrow(/network/);
  });
});
