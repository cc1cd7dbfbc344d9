import { describe, expect, it } from 'vitest';
import { DaemonKeeper, DaemonStoppedError, type DaemonLook, type KeeperStatus } from './daemon-keeper.js';

const EP = { url: 'ws://127.0.0.1:1', token: 't' };
const NEW_EP = { url: 'ws://127.0.0.1:2', token: 'u' };

/** A keeper over a scripted discovery file; `start()` makes the file name a live daemon. */
function world(initial: DaemonLook['state'], opts: { failStart?: boolean } = {}) {
  const w = {
    state: initial,
    starts: 0,
    statuses: [] as Array<[KeeperStatus, boolean]>,
    release: null as (() => void) | null,
  };
  const keeper = new DaemonKeeper({
    look: () =>
      Promise.resolve<DaemonLook>(
        w.state === 'alive' ? { state: 'alive', endpoint: w.starts > 0 ? NEW_EP : EP } : { state: w.state },
      ),
    start: () => {
      w.starts++;
      return new Promise<void>((resolve, reject) => {
        w.release = () => {
          if (opts.failStart) return reject(new Error('no daemon for you'));
          w.state = 'alive';
          resolve();
        };
      });
    },
  });
  keeper.onChange((s, c) => w.statuses.push([s, Boolean(c.restarted)]));
  return { w, keeper };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('DaemonKeeper', () => {
  it('connects to a live daemon without starting one', async () => {
    const { w, keeper } = world('alive');
    await expect(keeper.endpoint()).resolves.toEqual(EP);
    expect(w.starts).toBe(0);
    expect(keeper.status).toBe('ok');
  });

  it('a stale discovery file: one start for every attempt in flight, then ok with restarted', async () => {
    const { w, keeper } = world('stale');
    const a = keeper.endpoint();
    const b = keeper.endpoint();
    await tick();
    expect(w.starts).toBe(1);
    expect(keeper.status).toBe('starting');
    w.release!();
    await expect(a).resolves.toEqual(NEW_EP);
    await expect(b).resolves.toEqual(NEW_EP);
    keeper.connected();
    expect(w.statuses).toEqual([
      ['starting', false],
      ['ok', true],
    ]);
    keeper.connected(); // a later reconnect to the same daemon is no restart
    expect(w.statuses).toHaveLength(2);
  });

  it('no discovery file (a clean stop): stopped, nothing started, and it stays so even if the file turns stale', async () => {
    const { w, keeper } = world('absent');
    await expect(keeper.endpoint()).rejects.toBeInstanceOf(DaemonStoppedError);
    w.state = 'stale';
    await expect(keeper.endpoint()).rejects.toBeInstanceOf(DaemonStoppedError);
    expect(w.starts).toBe(0);
    expect(keeper.status).toBe('stopped');
    expect(keeper.canRestart).toBe(true);
    expect(w.statuses).toEqual([['stopped', false]]); // told once
  });

  it('after gateway.shutdown a vanished daemon is not started; restart() starts it and clears the stop', async () => {
    const { w, keeper } = world('alive');
    await keeper.endpoint();
    keeper.noteShutdown();
    w.state = 'stale';
    await expect(keeper.endpoint()).rejects.toBeInstanceOf(DaemonStoppedError);
    expect(w.starts).toBe(0);
    const r = keeper.restart();
    await tick();
    w.release!();
    await r;
    await expect(keeper.endpoint()).resolves.toEqual(NEW_EP);
    keeper.connected();
    expect(keeper.status).toBe('ok');
    expect(w.starts).toBe(1);
  });

  it('a daemon started elsewhere after a stop is found by itself', async () => {
    const { w, keeper } = world('absent');
    await expect(keeper.endpoint()).rejects.toBeInstanceOf(DaemonStoppedError);
    w.state = 'alive';
    await expect(keeper.endpoint()).resolves.toEqual(EP);
    keeper.connected();
    expect(keeper.status).toBe('ok');
    expect(w.starts).toBe(0);
  });

  it('a failed start is reported once and not retried by itself; restart() tries again', async () => {
    const { w, keeper } = world('stale', { failStart: true });
    const a = keeper.endpoint();
    await tick();
    w.release!();
    await expect(a).rejects.toThrow('no daemon for you');
    expect(keeper.status).toBe('failed');
    await expect(keeper.endpoint()).rejects.toBeInstanceOf(DaemonStoppedError);
    expect(w.starts).toBe(1);
    expect(keeper.canRestart).toBe(true);
    const r = keeper.restart();
    await tick();
    expect(w.starts).toBe(2);
    w.release!();
    await expect(r).rejects.toThrow('no daemon for you');
  });

  it('a start begun at launch (no daemon yet) is waited for, not taken for a deliberate stop', async () => {
    const { w, keeper } = world('absent');
    let release!: () => void;
    const launch = new Promise<void>((resolve) => {
      release = () => {
        w.state = 'alive';
        resolve();
      };
    });
    const adopted = keeper.adoptStart(launch);
    expect(keeper.status).toBe('starting');
    const endpoint = keeper.endpoint();
    await tick();
    release();
    await adopted;
    await expect(endpoint).resolves.toEqual(EP);
    expect(w.starts).toBe(0); // the keeper started nothing itself
    expect(w.statuses.map(([s]) => s)).not.toContain('stopped');
  });

  it('a failed launch start shows as failed, and the user may start again', async () => {
    const { keeper } = world('absent');
    await expect(keeper.adoptStart(Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(keeper.status).toBe('failed');
    expect(keeper.canRestart).toBe(true);
  });
});
