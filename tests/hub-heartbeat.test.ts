/**
 * Heartbeats end to end: `hermes heartbeat add --every 2s` on an existing session; the daemon runs
 * it inside that session, is stopped and started again, and runs it on: three runs in all, each
 * once per tick (one user message per run, never two in one tick), in the one session.
 * `/heartbeat` lists it from an attached client and `/heartbeat cancel ID` stops it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionDB } from '@hermes/core/state';
import { connect } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons, waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';

let model: FakeModelServer;
let root: string;

beforeAll(async () => {
  model = await startFakeModelServer({ whenEmpty: { text: 'beat noted' } });
  root = makeTestHome({ modelUrl: model.url, config: 'gateway:\n  drain_timeout: 5' });
  const r = await runHermes(root, ['gateway', 'start']);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await runHermes(root, ['gateway', 'stop']);
  killDaemons(root);
  await model.close();
});

/** Timestamps of the session's user messages with `text`, from state.db. */
function runsIn(sessionId: string, text: string): number[] {
  const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
  try {
    return db
      .getMessages(sessionId, { limit: 1000 })
      .filter((m) => m.role === 'user' && m.content === text)
      .map((m) => m.timestamp);
  } finally {
    db.close();
  }
}

const beats = () => model.requests.filter((q) => JSON.stringify(q.body).includes('heartbeat-prompt')).length;

describe('hub: heartbeats', () => {
  it('fire three times across a daemon restart, once per tick, inside the named session', async () => {
    const c = await connect({ root }, { name: 'tui', capabilities: { approvals: false } });
    const { session } = await c.request('session.create', { title: 'watched' });
    await c.close();
    const added = await runHermes(root, [
      'heartbeat',
      'add',
      '--session',
      session.id,
      '--every',
      '2s',
      '--json',
      'heartbeat-prompt',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const hb = JSON.parse(added.stdout) as { id: string };

    await waitFor(() => runsIn(session.id, 'heartbeat-prompt').length >= 2, 'two runs', 20_000);
    const stopped = await runHermes(root, ['gateway', 'stop']);
    expect(stopped.code, stopped.stderr).toBe(0);
    const beforeRestart = runsIn(session.id, 'heartbeat-prompt').length;
    expect(beforeRestart).toBeGreaterThanOrEqual(2);

    const started = await runHermes(root, ['gateway', 'start']);
    expect(started.code, started.stderr).toBe(0);
    await waitFor(
      () => runsIn(session.id, 'heartbeat-prompt').length >= 3,
      'the third run after the restart',
      20_000,
    );

    // visible and cancellable from an attached client
    const tui = await connect({ root }, { name: 'tui', capabilities: { approvals: false } });
    try {
      await tui.request('session.attach', { session_id: session.id });
      const listed = await tui.request('slash.exec', { session_id: session.id, command: '/heartbeat' });
      expect(listed.output).toContain(hb.id);
      expect(listed.output).toContain('every 2s');
      const cancelled = await tui.request('slash.exec', {
        session_id: session.id,
        command: `/heartbeat cancel ${hb.id}`,
      });
      expect(cancelled.output).toMatch(/^Cancelled: /);
    } finally {
      await tui.close();
    }
    const times = runsIn(session.id, 'heartbeat-prompt');
    const list = await runHermes(root, ['heartbeat', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual([]);
    // once per tick: stored runs match the prompts the model got, and no two runs share a tick
    expect(times.length).toBeGreaterThanOrEqual(3);
    expect(beats()).toBe(times.length);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1500);
    // one session: the heartbeat did not start a new one
    const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
    try {
      expect(db.listSessions({ limit: 10 }).map((s) => s.id)).toEqual([session.id]);
    } finally {
      db.close();
    }
  });
});
