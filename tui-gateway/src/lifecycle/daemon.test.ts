/** startDaemon in-process: discovery, one daemon per root, graceful close with the drain hook. */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { HermesHome } from '@hermes/core/home';
import { connect, DaemonConnectError } from '@hermes/client';
import { startDaemon, type DrainRequest } from './daemon.js';
import { inspectDiscovery } from './discovery.js';
import { DaemonLockedError } from './lock.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
function tempRoot(): string {
  const r = mkdtempSync(join(tmpdir(), 'hermes-gw-daemon-'));
  roots.push(r);
  return r;
}

describe('startDaemon', () => {
  it('writes a 0600 discovery file, refuses a second daemon, and closes gracefully', async () => {
    const root = tempRoot();
    const home = new HermesHome(root);
    const drains: DrainRequest[] = [];
    let sawShutdownInDrain = false;
    const events: WireEvent[] = [];
    const daemon = await startDaemon({
      root,
      version: '1.2.3',
      systemdUnitFile: null,
      drainTimeoutMs: 1234,
      drain: async (req) => {
        drains.push(req);
        // Clients are told before the drain and stay connected through it.
        const deadline = Date.now() + 5_000;
        while (!events.some((e) => e.type === 'gateway.shutdown') && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 5));
        }
        sawShutdownInDrain = events.some((e) => e.type === 'gateway.shutdown');
        return { clean: true };
      },
      stats: () => ({ sessions_live: 3 }),
    });
    const d = inspectDiscovery(home.discoveryFile);
    expect(d).toMatchObject({
      state: 'alive',
      info: {
        pid: process.pid,
        port: daemon.port,
        token: daemon.token,
        epoch: daemon.epoch,
        version: '1.2.3',
      },
    });
    expect(statSync(home.discoveryFile).mode & 0o777).toBe(0o600);
    expect(daemon.token).toMatch(/^[0-9a-f]{64}$/);

    await expect(startDaemon({ root, version: '1.2.3', systemdUnitFile: null })).rejects.toBeInstanceOf(
      DaemonLockedError,
    );

    const c = await connect({ root }, { name: 'watcher' });
    const other = await connect({ root }, { name: 'other' });
    c.onEvent((e) => events.push(e));
    const status = await c.request('gateway.status');
    expect(status).toMatchObject({
      pid: process.pid,
      sessions_live: 3,
      clients_attached: 1,
      connections: 1,
      shutting_down: false,
    });

    await daemon.close('test');
    expect(drains).toHaveLength(1);
    expect(drains[0]).toMatchObject({ reason: 'test', timeoutMs: 1234 });
    expect(sawShutdownInDrain).toBe(true);
    expect(events.find((e) => e.type === 'gateway.shutdown')).toMatchObject({
      session_id: '*',
      payload: { reason: 'test', drain_timeout_ms: 1234 },
    });
    expect((await c.closed).code).toBe(1001);
    expect((await other.closed).code).toBe(1001);
    expect(existsSync(home.discoveryFile)).toBe(false);
    expect(existsSync(home.daemonLockFile)).toBe(false);

    const log = readFileSync(home.daemonLogFile, 'utf8');
    expect(log).toMatch(/started: pid/);
    expect(log).toMatch(/drained in \d+ ms \(clean: true\)/);
    expect(log).not.toContain(daemon.token);

    const again = await startDaemon({ root, version: '1.2.3', systemdUnitFile: null });
    expect(again.epoch).not.toBe(daemon.epoch);
    expect(again.token).not.toBe(daemon.token);
    await again.close();
  });

  it('refuses new sockets while draining and stops when the drain hook overruns', async () => {
    const root = tempRoot();
    let release!: () => void;
    const draining = new Promise<void>((r) => (release = r));
    const daemon = await startDaemon({
      root,
      version: '1',
      systemdUnitFile: null,
      drainTimeoutMs: 200,
      drainMarginMs: 100,
      drain: async () => {
        release();
        await new Promise(() => {}); // never finishes
      },
    });
    const c = await connect({ root }, { name: 'c' });
    const closing = daemon.close('SIGTERM');
    await draining;
    expect((await c.request('gateway.status')).shutting_down).toBe(true);
    const refused = await connect({ port: daemon.port, token: daemon.token }, { name: 'late' }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(DaemonConnectError);
    expect((refused as DaemonConnectError).status).toBe(503);
    await closing;
    expect(readFileSync(new HermesHome(root).daemonLogFile, 'utf8')).toMatch(
      /drain hook still running after \d+ ms/,
    );
  });

  it('releases the lock when registerHandlers fails', async () => {
    const root = tempRoot();
    await expect(
      startDaemon({
        root,
        version: '1',
        systemdUnitFile: null,
        registerHandlers: () => {
          throw new Error('layer broke');
        },
      }),
    ).rejects.toThrow('layer broke');
    expect(existsSync(new HermesHome(root).daemonLockFile)).toBe(false);
    expect(existsSync(new HermesHome(root).discoveryFile)).toBe(false);
  });

  it('warns when the systemd unit stops faster than the drain', async () => {
    const root = tempRoot();
    const unit = join(root, 'hermes-gateway.service');
    writeFileSync(unit, '[Service]\nTimeoutStopSec=10\n');
    const daemon = await startDaemon({ root, version: '1', systemdUnitFile: unit, drainTimeoutMs: 30_000 });
    await daemon.close();
    expect(readFileSync(new HermesHome(root).daemonLogFile, 'utf8')).toMatch(
      /WARN .*TimeoutStopSec=10s, shorter than gateway.drain_timeout=30s/,
    );
  });

  it('serves the profiles of the root and the injected ones', async () => {
    const root = tempRoot();
    new HermesHome(root, 'work').ensure();
    writeFileSync(join(root, 'active_profile'), 'work\n');
    const daemon = await startDaemon({ root, version: '1', systemdUnitFile: null });
    const c = await connect({ root }, { name: 'c' });
    expect(c.server).toMatchObject({ profile: 'work', profiles: ['default', 'work'] });
    await c.close();
    await daemon.close();
    const injected = await startDaemon({
      root,
      version: '1',
      systemdUnitFile: null,
      profiles: async () => ['default', 'x'],
      activeProfile: () => 'x',
    });
    const c2 = await connect({ root }, { name: 'c' });
    expect(c2.server).toMatchObject({ profile: 'x', profiles: ['default', 'x'] });
    await c2.close();
    await injected.close();
  });
});
