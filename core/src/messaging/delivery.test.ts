import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { deliverMessage, setLiveAdapter, type DeliveryContext } from './delivery.js';
import { PlatformRegistry } from './registry.js';
import { MemoryAdapter } from './testing.js';

afterEach(() => setLiveAdapter('default', 'memory', undefined));

function ctx(config: Record<string, unknown> = {}, secrets: Record<string, string> = {}) {
  const home = new HermesHome(mkdtempSync(join(tmpdir(), 'hermes-deliver-'))).ensure();
  const registry = new PlatformRegistry();
  const standalone: string[] = [];
  registry.register({
    name: 'memory',
    label: 'Memory',
    createAdapter: () => new MemoryAdapter(),
    cronDeliverEnvVar: 'MEMORY_HOME',
    standaloneSender: async (_c, chatId, text) => {
      standalone.push(`${chatId}: ${text}`);
      return { ok: true, messageId: 's1' };
    },
  });
  registry.register({
    name: 'liveonly',
    label: 'LiveOnly',
    createAdapter: () => new MemoryAdapter('liveonly'),
  });
  const c: DeliveryContext = {
    profile: 'default',
    home,
    config: ConfigSchema.parse(config),
    secrets,
    registry,
    now: () => new Date(2026, 0, 2, 3, 4, 5),
  };
  return { c, home, standalone };
}

describe('deliverMessage', () => {
  it('local: a 0600 file under cron/output/<job>/', async () => {
    const { c, home } = ctx();
    const r = await deliverMessage({ target: 'local', text: 'report', jobId: 'job-1', jobName: 'Daily' }, c);
    expect(r).toMatchObject({ ok: true, kind: 'local', target: 'local' });
    expect(r.path).toBe(join(home.cronOutputDir, 'job-1', '20260102_030405.md'));
    expect(readFileSync(r.path!, 'utf8')).toBe('# Daily\n\nreport\n');
    expect(statSync(r.path!).mode & 0o777).toBe(0o600);
  });

  it('silence delivers nothing', async () => {
    const { c, standalone } = ctx();
    expect(await deliverMessage({ target: 'memory:1', text: 'NO_REPLY' }, c)).toMatchObject({
      ok: true,
      kind: 'silent',
    });
    expect(standalone).toEqual([]);
  });

  it('origin goes back to the origin chat; without origin it is local', async () => {
    const { c, standalone } = ctx();
    const origin = { platform: 'memory', chatType: 'dm' as const, chatId: 'C1' };
    expect(await deliverMessage({ target: 'origin', text: 'hi', origin }, c)).toMatchObject({
      ok: true,
      target: 'memory:C1',
      via: 'standalone',
    });
    expect(standalone).toEqual(['C1: hi']);
    expect((await deliverMessage({ target: 'origin', text: 'hi' }, c)).kind).toBe('local');
  });

  it('home channel from config, then from the secret; none → error', async () => {
    expect(
      (
        await deliverMessage(
          { target: 'memory', text: 'x' },
          ctx({ platforms: { memory: { home_channel: 42 } } }).c,
        )
      ).target,
    ).toBe('memory');
    const s = ctx({}, { MEMORY_HOME: 'H' });
    await deliverMessage({ target: 'memory', text: 'x' }, s.c);
    expect(s.standalone).toEqual(['H: x']);
    expect(await deliverMessage({ target: 'memory', text: 'x' }, ctx().c)).toMatchObject({
      ok: false,
      error: /no home channel/,
    });
  });

  it('a live adapter of this process wins; without it a live-only platform fails clearly', async () => {
    const { c, standalone } = ctx();
    expect(await deliverMessage({ target: 'liveonly:1', text: 'x' }, c)).toMatchObject({
      ok: false,
      error: /only deliver while the daemon runs/,
    });
    const live = new MemoryAdapter('memory', { max: 5 });
    setLiveAdapter('default', 'memory', live);
    const r = await deliverMessage({ target: 'memory:7:t', text: 'hello world' }, c);
    expect(r).toMatchObject({ ok: true, via: 'live' });
    expect(live.texts('7')).toEqual(['hello', 'world']);
    expect(standalone).toEqual([]);
  });

  it('bad targets come back as errors, not exceptions', async () => {
    const { c } = ctx();
    expect(await deliverMessage({ target: 'no such', text: 'x' }, c)).toMatchObject({ ok: false });
    expect(await deliverMessage({ target: 'nowhere:1', text: 'x' }, c)).toMatchObject({
      ok: false,
      error: /unknown platform/,
    });
  });
});
