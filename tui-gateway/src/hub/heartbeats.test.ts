import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RpcErrorCode } from '@hermes/core/protocol';
import { RpcMethodError } from '../rpc/types.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { parseEvery, readHeartbeats } from './heartbeat-store.js';
import { HeartbeatService } from './heartbeats.js';
import { HermesHome } from '@hermes/core/home';

/** A registry with one session `s1` whose busy state the test sets; records submits. */
function fakeRegistry() {
  const submits: Array<{ text: string; by?: string; at: number }> = [];
  const session = {
    id: 's1',
    busy: false,
    queue: [] as unknown[],
    queued() {
      return this.queue;
    },
    submit(text: string, by?: string) {
      submits.push({ text, ...(by ? { by } : {}), at: clock.now });
      return { prompt_id: 'p', status: 'started' };
    },
  };
  const clock = { now: Date.parse('2026-12-05T10:00:00Z') };
  const registry = {
    isDraining: false,
    get(_profile: string, id: string) {
      if (id !== 's1') throw new RpcMethodError(RpcErrorCode.SessionNotFound, `no session "${id}"`);
      return session;
    },
  } as unknown as SessionRegistry;
  return { registry, session, submits, clock };
}

function service(root: string, f: ReturnType<typeof fakeRegistry>, logs: string[] = []) {
  return new HeartbeatService({
    root,
    registry: () => f.registry,
    profiles: () => ['default'],
    log: (l) => logs.push(l),
    now: () => f.clock.now,
  });
}

describe('heartbeats', () => {
  it('parses intervals', () => {
    expect([parseEvery('30m'), parseEvery('2h'), parseEvery('45s'), parseEvery('1 day')]).toEqual([
      1_800_000, 7_200_000, 45_000, 86_400_000,
    ]);
    expect(() => parseEvery('0.5s')).toThrow(/shorter than a second/);
    expect(() => parseEvery('soon')).toThrow(/not an interval/);
  });

  it('runs once per tick, is stored (0600) and survives a new service (a restart) without running twice', () => {
    const root = mkdtempSync(join(tmpdir(), 'hb-'));
    const f = fakeRegistry();
    const hb = service(root, f).add('default', 's1', '30m', 'check the build');
    const file = join(root, 'heartbeats.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const a = service(root, f);
    a.check();
    expect(f.submits).toEqual([]); // not due yet
    f.clock.now += 30 * 60_000;
    a.check();
    a.check(); // the same tick again: nothing more
    expect(f.submits).toEqual([{ text: 'check the build', by: `heartbeat:${hb.id}`, at: f.clock.now }]);
    // "restart": a fresh service over the same file runs the next tick, not this one again
    const b = service(root, f);
    b.check();
    expect(f.submits).toHaveLength(1);
    f.clock.now += 30 * 60_000;
    b.check();
    expect(f.submits).toHaveLength(2);
    expect(readHeartbeats(new HermesHome(root))[0]).toMatchObject({ runs: 2 });
  });

  it('claims before it runs: the stored next time moved past now even when the run never happens', () => {
    const root = mkdtempSync(join(tmpdir(), 'hb-'));
    const f = fakeRegistry();
    service(root, f).add('default', 's1', '10s', 'beat');
    f.clock.now += 10_000;
    f.session.busy = true;
    const s = service(root, f);
    s.check();
    expect(Date.parse(readHeartbeats(new HermesHome(root))[0]!.next_run_at)).toBe(f.clock.now + 10_000);
    expect(s.list('default')[0]!.waiting).toBe(true);
  });

  it('waits while a turn runs, then runs once; ticks due meanwhile do not stack', () => {
    const root = mkdtempSync(join(tmpdir(), 'hb-'));
    const f = fakeRegistry();
    const s = service(root, f);
    s.add('default', 's1', '10s', 'beat');
    f.session.busy = true;
    for (let i = 0; i < 5; i++) {
      f.clock.now += 10_000;
      s.check();
    }
    expect(f.submits).toEqual([]);
    f.session.busy = false;
    f.session.queue = ['waiting prompt'];
    s.check();
    expect(f.submits).toEqual([]); // prompts wait in the queue: still a turn to come
    f.session.queue = [];
    s.check();
    s.check();
    expect(f.submits).toHaveLength(1);
  });

  it('list and cancel; an unknown session or interval is refused; a gone session removes its heartbeat', () => {
    const root = mkdtempSync(join(tmpdir(), 'hb-'));
    const f = fakeRegistry();
    const logs: string[] = [];
    const s = service(root, f, logs);
    expect(() => s.add('default', 'nope', '1m', 'x')).toThrow(/no session/);
    expect(() => s.add('default', 's1', 'often', 'x')).toThrow(/not an interval/);
    const a = s.add('default', 's1', '1m', 'a');
    s.add('default', 's1', '1m', 'b');
    expect(s.list('default', 's1').map((h) => h.prompt)).toEqual(['a', 'b']);
    expect(s.remove('default', a.id).prompt).toBe('a');
    expect(() => s.remove('default', a.id)).toThrow(/no heartbeat/);
    // a heartbeat whose session was deleted meanwhile
    const file = join(root, 'heartbeats.json');
    const list = JSON.parse(readFileSync(file, 'utf8')) as Array<{ session_id: string }>;
    list[0]!.session_id = 'deleted';
    writeFileSync(file, JSON.stringify(list));
    f.clock.now += 60_000;
    s.check();
    expect(s.list('default')).toEqual([]);
    expect(logs.join('\n')).toMatch(/session is gone; removed/);
  });

  it('a damaged file is reported and left as it is', () => {
    const root = mkdtempSync(join(tmpdir(), 'hb-'));
    writeFileSync(join(root, 'heartbeats.json'), '{oops');
    const f = fakeRegistry();
    const logs: string[] = [];
    service(root, f, logs).check();
    expect(logs[0]).toMatch(/not valid JSON/);
    expect(readFileSync(join(root, 'heartbeats.json'), 'utf8')).toBe('{oops');
  });
});
