import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { PlatformConfigSchema } from './platform-config.js';
import { PlatformRegistry, type PlatformContext, type PlatformEntry } from './registry.js';
import { MemoryAdapter } from './testing.js';

const ctx: PlatformContext = {
  profile: 'default',
  home: new HermesHome('/tmp/hermes-registry-test'),
  hermesConfig: ConfigSchema.parse({}),
  config: PlatformConfigSchema.parse({}),
  secrets: {},
  log: () => undefined,
};
const entry = (name: string, extra: Partial<PlatformEntry> = {}): PlatformEntry => ({
  name,
  label: name.toUpperCase(),
  createAdapter: () => new MemoryAdapter(name),
  ...extra,
});

describe('PlatformRegistry', () => {
  it('deferred loaders run on first lookup only, once, and count as registered before', async () => {
    const r = new PlatformRegistry();
    let loads = 0;
    r.registerDeferred('irc', async () => {
      loads++;
      return entry('irc');
    });
    expect(r.isRegistered('irc')).toBe(true);
    expect(r.names()).toEqual(['irc']);
    expect(r.peek('irc')).toBeUndefined();
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([r.get('irc'), r.get('irc')]);
    expect(a).toBe(b);
    expect(loads).toBe(1);
    expect(r.peek('irc')?.label).toBe('IRC');
  });

  it('a loader may register the platform itself', async () => {
    const r = new PlatformRegistry();
    r.registerDeferred('x', async () => r.register(entry('x')));
    expect((await r.get('x'))?.name).toBe('x');
  });

  it.each<[string, Partial<PlatformEntry> | 'load-fails', string, RegExp]>([
    ['check fails', { checkRequirements: () => 'TOKEN missing' }, 'check', /TOKEN missing/],
    [
      'check throws',
      {
        checkRequirements: () => {
          throw new Error('no sdk');
        },
      },
      'check',
      /no sdk/,
    ],
    ['config invalid', { validateConfig: () => 'server is required' }, 'config', /server is required/],
    [
      'factory throws',
      {
        createAdapter: () => {
          throw new Error('bad token');
        },
      },
      'factory',
      /bad token/,
    ],
    ['loader fails', 'load-fails', 'load', /could not load: module not found/],
  ])('%s: that platform stays offline, the others come up', async (_n, broken, stage, error) => {
    const r = new PlatformRegistry();
    if (broken === 'load-fails')
      r.registerDeferred('bad', async () => {
        throw new Error('module not found');
      });
    else r.register(entry('bad', broken));
    r.registerDeferred('good', async () => entry('good'));
    const bad = await r.createAdapter('bad', ctx);
    expect(bad).toMatchObject({ ok: false, stage });
    expect(!bad.ok && bad.error).toMatch(error);
    const good = await r.createAdapter('good', ctx);
    expect(good.ok).toBe(true);
  });

  it('unknown names and malformed names', async () => {
    const r = new PlatformRegistry();
    expect(await r.createAdapter('nope', ctx)).toMatchObject({ ok: false, stage: 'unknown' });
    expect(() => r.register(entry('Bad Name'))).toThrow(/invalid platform name/);
    expect(() => r.registerDeferred('../x', async () => undefined)).toThrow(/invalid platform name/);
  });

  it('a loader that registers nothing is reported', async () => {
    const r = new PlatformRegistry();
    r.registerDeferred('empty', async () => undefined);
    expect(await r.get('empty')).toBeUndefined();
    expect(r.loadError('empty')).toMatch(/registered no platform/);
  });
});
