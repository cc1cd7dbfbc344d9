/**
 * The adapter host in process, with test platforms in a private registry: failure isolation per
 * platform, disconnect after a failed connect, per-profile start, status, and shutdown. (The
 * reconnect schedule: reconnect.test.ts.)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getLiveAdapter, PlatformRegistry, type PlatformEntry } from '@hermes/core/messaging';
import { MemoryAdapter } from '@hermes/core/testing';
import { SessionRegistry } from '../sessions/session-registry.js';
import { AdapterHost } from './adapter-host.js';
import { FakeClock } from './fake-clock.js';

class FailingAdapter extends MemoryAdapter {
  disconnects = 0;
  override async connect(): Promise<void> {
    throw new Error('connection refused');
  }
  override async disconnect(): Promise<void> {
    this.disconnects++;
  }
}

class HangingAdapter extends MemoryAdapter {
  override connect(): Promise<void> {
    return new Promise(() => undefined);
  }
}

const registries: SessionRegistry[] = [];
afterEach(async () => {
  for (const r of registries.splice(0)) await r.drain(100);
});

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'hermes-host-'));
  const yaml = [
    'platforms:',
    '  good: { enabled: true }',
    '  broken: { enabled: true }',
    '  failing: { enabled: true }',
    '  hanging: { enabled: true }',
    '  off: { enabled: false }',
  ].join('\n');
  writeFileSync(join(root, 'config.yaml'), `${yaml}\n`);
  mkdirSync(join(root, 'profiles', 'work'), { recursive: true });
  writeFileSync(join(root, 'profiles', 'work', 'config.yaml'), 'platforms:\n  good: { enabled: true }\n');
  const adapters: MemoryAdapter[] = [];
  const failing = new FailingAdapter('failing');
  const registry = new PlatformRegistry();
  const entry = (name: string, extra: Partial<PlatformEntry> = {}): PlatformEntry => ({
    name,
    label: name,
    createAdapter: () => {
      const a = new MemoryAdapter(name);
      adapters.push(a);
      return a;
    },
    ...extra,
  });
  registry.register(entry('good'));
  registry.register(entry('broken', { checkRequirements: () => 'BROKEN_TOKEN is not set' }));
  registry.register(entry('failing', { createAdapter: () => failing }));
  registry.register(entry('hanging', { createAdapter: () => new HangingAdapter('hanging') }));
  registry.register(entry('off'));
  const sessions = new SessionRegistry({ root, epoch: 'e' });
  registries.push(sessions);
  const logs: string[] = [];
  const log = {
    info: (l: string) => logs.push(l),
    warn: (l: string) => logs.push(l),
    error: (l: string) => logs.push(l),
    addSecret: () => undefined,
  };
  // retries wait on a clock nobody advances here
  const clock = new FakeClock();
  const host = new AdapterHost({ root, sessions, log, registry, connectTimeoutMs: 300, clock });
  return { host, adapters, failing, logs };
}

describe('AdapterHost', () => {
  it('brings up what it can; each failure stays with its platform, with a reason', async () => {
    const { host, adapters, failing, logs } = setup();
    await host.start();
    const st = host
      .status()
      .map((s) => [s.profile, s.platform, s.state, s.error ?? s.last_error ?? '', s.attempt ?? 0]);
    expect(st).toEqual([
      ['default', 'broken', 'failed', 'check: BROKEN_TOKEN is not set', 0],
      ['default', 'failing', 'backing_off', 'connect: connection refused', 2],
      ['default', 'good', 'connected', '', 0],
      ['default', 'hanging', 'backing_off', 'connect: connect timed out after 300 ms', 2],
      ['work', 'good', 'connected', '', 0],
    ]);
    expect(failing.disconnects).toBe(1); // a failed connect is followed by a disconnect
    expect(adapters.filter((a) => a.connected)).toHaveLength(2);
    expect(getLiveAdapter('default', 'good')).toBe(adapters.find((a) => a.connected));
    expect(getLiveAdapter('default', 'failing')).toBeUndefined();
    expect(
      logs.some((l) => l.includes('platform broken stays offline (check): BROKEN_TOKEN is not set')),
    ).toBe(true);

    await host.beginShutdown();
    await host.stop();
    expect(adapters.every((a) => !a.connected)).toBe(true);
    expect(getLiveAdapter('default', 'good')).toBeUndefined();
    expect(
      host
        .status()
        .filter((s) => s.state === 'stopped')
        .map((s) => `${s.profile}/${s.platform}`),
    ).toEqual(['default/failing', 'default/good', 'default/hanging', 'work/good']);
  });
});
