/**
 * The reconnect schedule (reconnect.ts) and the adapter host following it on a hand-driven
 * clock: retries from the first failed connect on, the honest state in between, a lost
 * connection reconnected, a permanent refusal not retried, shutdown cancelling a wait.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getLiveAdapter, PlatformRegistry } from '@hermes/core/messaging';
import { MemoryAdapter } from '@hermes/core/testing';
import { SessionRegistry } from '../sessions/session-registry.js';
import { AdapterHost, STABLE_MS } from './adapter-host.js';
import { FakeClock } from './fake-clock.js';
import { backoffDelayMs } from './reconnect.js';

describe('backoffDelayMs', () => {
  it('doubles from 1 s to the 60 s cap', () => {
    const mid = { random: () => 0.5 }; // no jitter
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50, 10_000].map((n) => backoffDelayMs(n, mid))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000,
    ]);
  });

  it('moves each wait by at most ±20 %, never above the cap', () => {
    expect(backoffDelayMs(1, { random: () => 0 })).toBe(800);
    expect(backoffDelayMs(1, { random: () => 0.999999 })).toBe(1_200);
    expect(backoffDelayMs(3, { random: () => 0.25 })).toBe(3_600);
    expect(backoffDelayMs(7, { random: () => 0 })).toBe(48_000);
    expect(backoffDelayMs(7, { random: () => 0.999999 })).toBe(60_000);
    for (let n = 1; n <= 12; n++) {
      const d = backoffDelayMs(n);
      const base = Math.min(60_000, 1_000 * 2 ** (n - 1));
      expect(d).toBeGreaterThanOrEqual(base * 0.8);
      expect(d).toBeLessThanOrEqual(Math.min(60_000, base * 1.2));
    }
  });

  it('takes other parameters', () => {
    const o = { initialMs: 100, maxMs: 500, factor: 3, jitter: 0, random: () => 0 };
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, o))).toEqual([100, 300, 500, 500]);
  });
});

/** Refuses the first `failures` connects (or every one with a permanent error), then connects. */
class FlakyAdapter extends MemoryAdapter {
  attempts = 0;
  disconnects = 0;
  constructor(
    private failures: number,
    private readonly permanent = false,
  ) {
    super('flaky');
  }
  override async connect(): Promise<void> {
    this.attempts++;
    if (this.permanent) throw Object.assign(new Error('wrong password'), { permanent: true });
    if (this.failures > 0) {
      this.failures--;
      throw new Error('ECONNREFUSED');
    }
    await super.connect();
  }
  override async disconnect(): Promise<void> {
    this.disconnects++;
    await super.disconnect();
  }
  /** The platform drops the established connection. */
  drop(failuresAfter: number): void {
    this.connected = false;
    this.failures = failuresAfter;
    this.emitFatal(new Error('connection lost'));
  }
}

const registries: SessionRegistry[] = [];
afterEach(async () => {
  for (const r of registries.splice(0)) await r.drain(100);
});

function setup(adapter: FlakyAdapter) {
  const root = mkdtempSync(join(tmpdir(), 'hermes-reconnect-'));
  writeFileSync(join(root, 'config.yaml'), 'platforms:\n  flaky: { enabled: true }\n');
  const registry = new PlatformRegistry();
  registry.register({ name: 'flaky', label: 'flaky', createAdapter: () => adapter });
  const sessions = new SessionRegistry({ root, epoch: 'e' });
  registries.push(sessions);
  const logs: string[] = [];
  const log = {
    info: (l: string) => logs.push(l),
    warn: (l: string) => logs.push(l),
    error: (l: string) => logs.push(l),
    addSecret: () => undefined,
  };
  const clock = new FakeClock();
  const host = new AdapterHost({
    root,
    sessions,
    log,
    registry,
    clock,
    backoff: { random: () => 0.5 }, // the plain schedule: 1 s, 2 s, 4 s …
    profiles: () => ['default'],
  });
  const state = () => host.status()[0]!;
  return { host, clock, logs, state };
}

describe('AdapterHost reconnects', () => {
  it('retries a failed first connect on the schedule and reports each wait', async () => {
    const adapter = new FlakyAdapter(3);
    const { host, clock, logs, state } = setup(adapter);
    const t0 = clock.now();
    await host.start();
    expect(adapter.attempts).toBe(1);
    expect(adapter.disconnects).toBe(1); // every failed connect is cleaned up
    expect(state()).toMatchObject({
      state: 'backing_off',
      attempt: 2,
      retry_at: new Date(t0 + 1_000).toISOString(),
      last_error: 'connect: ECONNREFUSED',
    });
    expect(getLiveAdapter('default', 'flaky')).toBeUndefined();

    clock.advance(999);
    expect(adapter.attempts).toBe(1); // not before its time
    clock.advance(1);
    await vi.waitFor(() => expect(state()).toMatchObject({ state: 'backing_off', attempt: 3 }));
    expect(state().retry_at).toBe(new Date(t0 + 1_000 + 2_000).toISOString());
    clock.advance(2_000);
    await vi.waitFor(() => expect(state()).toMatchObject({ state: 'backing_off', attempt: 4 }));
    expect(state().retry_at).toBe(new Date(t0 + 3_000 + 4_000).toISOString());
    clock.advance(4_000);
    await vi.waitFor(() => expect(state().state).toBe('connected'));
    expect(adapter.attempts).toBe(4);
    expect(state().last_error).toBeUndefined();
    expect(getLiveAdapter('default', 'flaky')).toBe(adapter);
    expect(logs).toContain('[default] platform flaky: connect: ECONNREFUSED; attempt 2 in 1000 ms');
    expect(logs).toContain('[default] platform flaky connected (attempt 4)');
    await host.stop();
  });

  it('reconnects a lost connection; a short-lived one keeps counting failures', async () => {
    const adapter = new FlakyAdapter(0);
    const { host, clock, state } = setup(adapter);
    await host.start();
    expect(state().state).toBe('connected');

    clock.advance(STABLE_MS); // a stable connection: its loss starts the schedule afresh
    adapter.drop(1);
    expect(getLiveAdapter('default', 'flaky')).toBeUndefined();
    await vi.waitFor(() =>
      expect(state()).toMatchObject({ state: 'backing_off', retry_at: expect.any(String) }),
    );
    expect(state()).toMatchObject({ attempt: 2, last_error: 'lost: connection lost' });
    expect(Date.parse(state().retry_at!) - clock.now()).toBe(1_000);
    clock.advance(1_000);
    await vi.waitFor(() => expect(state()).toMatchObject({ state: 'backing_off', attempt: 3 }));
    expect(Date.parse(state().retry_at!) - clock.now()).toBe(2_000);
    clock.advance(2_000);
    await vi.waitFor(() => expect(state().state).toBe('connected'));

    // dropped again at once: the failures go on counting (no tight reconnect loop)
    adapter.drop(0);
    await vi.waitFor(() =>
      expect(state()).toMatchObject({ state: 'backing_off', retry_at: expect.any(String) }),
    );
    expect(state().attempt).toBe(4);
    expect(Date.parse(state().retry_at!) - clock.now()).toBe(4_000);
    clock.advance(4_000);
    await vi.waitFor(() => expect(state().state).toBe('connected'));
    expect(getLiveAdapter('default', 'flaky')).toBe(adapter);
    await host.stop();
  });

  it('a permanent refusal is not retried', async () => {
    const adapter = new FlakyAdapter(0, true);
    const { host, clock, state } = setup(adapter);
    await host.start();
    expect(state()).toMatchObject({ state: 'failed', error: 'connect: wrong password' });
    expect(clock.pending).toEqual([]);
    await host.stop();
    expect(state().state).toBe('failed');
  });

  it('shutdown cancels a pending retry', async () => {
    const adapter = new FlakyAdapter(5);
    const { host, clock, state } = setup(adapter);
    await host.start();
    expect(clock.pending).toHaveLength(1);
    await host.beginShutdown();
    await host.stop();
    expect(clock.pending).toEqual([]);
    expect(state().state).toBe('stopped');
    clock.advance(120_000);
    expect(adapter.attempts).toBe(1);
  });
});
