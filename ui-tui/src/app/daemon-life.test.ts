import { afterEach, describe, expect, it } from 'vitest';
import { DaemonKeeper, type DaemonLook } from '../client/daemon-keeper.js';
import { DaemonClient } from '@hermes/client';
import { sessionInfo, snapshotResult, stored } from '../testing/fixtures.js';
import { startTestServer, waitFor, type TestServer } from '@hermes/client/testing';
import { SessionController } from './controller.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A fixed local time for the "interrupted at" notice. */
const DROP_AT = new Date(2026, 0, 2, 10, 20, 30).getTime();

/**
 * Scripted daemons behind a scripted discovery file: the first streams a turn; a daemon started
 * after it (`start`, shared by every keeper: the pid lock lets one daemon run) has crash-recovered
 * the turn as interrupted with its kept text.
 */
async function daemons() {
  const w = {
    current: null as TestServer | null,
    /** false: the discovery file names a dead pid (stale). */
    alive: true,
    /** false: no discovery file (a clean stop removed it). */
    file: true,
    created: 0,
    starting: null as Promise<void> | null,
    submits: [] as string[],
  };
  const serve = async (epoch: string, recovered: boolean): Promise<TestServer> => {
    const s = await startTestServer({ epoch });
    cleanups.push(() => s.close());
    s.handlers.set('session.list', () => ({ sessions: [sessionInfo()] }));
    s.handlers.set('session.attach', () =>
      recovered
        ? snapshotResult({
            session: sessionInfo({ busy: false }),
            messages: [stored('user', 'go'), stored('assistant', 'Half a rep', { status: 'interrupted' })],
            epoch,
          })
        : snapshotResult({
            session: sessionInfo({ busy: true }),
            messages: [stored('user', 'go')],
            inflight: {
              prompt_id: 'p1',
              text: 'Half a rep',
              reasoning: '',
              status: 'responding',
              started_at: DROP_AT - 53_000,
              tools: [],
              completed_tools: [],
            } as never,
            seq: 3,
            epoch,
          }),
    );
    s.handlers.set('prompt.submit', (p) => {
      w.submits.push(String(p.text));
      return { prompt_id: `p${w.submits.length + 1}`, status: 'started' };
    });
    return s;
  };
  w.current = await serve('epoch-1', false);
  const look = (): Promise<DaemonLook> => {
    const s = w.current;
    if (!w.file || !s) return Promise.resolve({ state: 'absent' });
    if (!w.alive) return Promise.resolve({ state: 'stale' });
    return Promise.resolve({ state: 'alive', endpoint: { url: s.url, token: s.token } });
  };
  const start = (): Promise<void> => {
    // concurrent starters end with one daemon: the losers wait for the winner
    w.starting ??= (async () => {
      w.created++;
      w.current = await serve(`epoch-${w.created + 1}`, true);
      w.alive = true;
      w.file = true;
    })().finally(() => (w.starting = null));
    return w.starting;
  };
  return { w, look, start };
}

/** A TUI: the real client and controller, its keeper on the shared daemons. */
async function tui(d: Awaited<ReturnType<typeof daemons>>) {
  const keeper = new DaemonKeeper({ look: d.look, start: d.start });
  const client = new DaemonClient({
    endpoint: keeper.endpoint,
    name: 'hermes-tui',
    version: 'test',
    capabilities: { approvals: true, clarify: true },
    reconnect: true,
    backoff: { initialMs: 10, maxMs: 30 },
  });
  cleanups.push(() => client.close());
  const controller = new SessionController({
    client,
    cwd: '/w',
    throttleMs: 0,
    daemon: keeper,
    now: () => DROP_AT,
  });
  cleanups.push(() => controller.dispose());
  await controller.start({ mode: 'continue' });
  await waitFor(() => controller.state.busy && controller.state.streaming?.text === 'Half a rep');
  return { controller, client, keeper };
}

const texts = (c: SessionController): string[] =>
  c.state.items.map((i) =>
    i.kind === 'tool'
      ? `tool:${i.toolId}`
      : `${i.kind}:${i.text}${'status' in i && i.status ? `(${i.status})` : ''}`,
  );
const notices = (c: SessionController): string[] =>
  c.state.items.filter((i) => i.kind === 'notice').map((i) => i.text);

describe('the TUI owns its daemon’s life', () => {
  it('a vanished daemon: two TUIs start one new daemon, show the turn interrupted once, and send what was typed meanwhile', async () => {
    const d = await daemons();
    const a = await tui(d);
    const b = await tui(d);
    d.w.alive = false; // kill -9: the discovery file stays, its pid is gone
    const old = d.w.current!;
    await old.close();
    a.controller.submit('typed while reconnecting').catch(() => {});
    for (const t of [a, b]) {
      await waitFor(() => t.client.state === 'connected' && t.client.server?.epoch === 'epoch-2');
      await waitFor(() => t.controller.state.epoch === 'epoch-2' && !t.controller.state.busy);
    }
    expect(d.w.created).toBe(1);
    for (const t of [a, b]) {
      const s = t.controller.state;
      expect(s.busy).toBe(false);
      expect(s.activity).toBeNull();
      expect(s.turnStartedAt).toBeNull(); // the elapsed timer stops
      expect(s.streaming).toBeNull();
      expect(texts(t.controller).filter((x) => x.includes('Half a rep'))).toEqual([
        'assistant:Half a rep(interrupted)',
      ]);
      expect(notices(t.controller)).toContain(
        'Daemon restarted; turn interrupted at 10:20:30 (its partial reply is kept). Re-attaching.',
      );
      expect(notices(t.controller).join('\n')).not.toContain('The daemon restarted; re-attaching.');
    }
    await waitFor(() => d.w.submits.length === 1);
    expect(d.w.submits).toEqual(['typed while reconnecting']);
  });

  it('gateway.shutdown: stopped, nothing started by itself; startDaemon() (the r key) starts it and re-attaches', async () => {
    const d = await daemons();
    const a = await tui(d);
    const first = d.w.current!;
    for (const conn of first.conns)
      conn.event('gateway.shutdown', '*', 0, { reason: 'SIGTERM', drain_timeout_ms: 1 });
    await waitFor(() => notices(a.controller).some((n) => n.includes('shutting down')));
    d.w.alive = false; // even a stale file after an announced stop is not restarted
    await first.close();
    await waitFor(() => a.controller.state.daemon === 'stopped');
    expect(notices(a.controller)).toContain(
      'Daemon stopped — press r (on an empty composer) to start it again.',
    );
    expect(a.controller.state.busy).toBe(false);
    expect(a.controller.canStartDaemon).toBe(true);
    // the client keeps looking (backoff 10–30 ms): many attempts, still no start
    const attempts = first.conns.length;
    await waitFor(() => a.client.state === 'reconnecting');
    expect(d.w.created).toBe(0);
    expect(first.conns.length).toBe(attempts);

    await a.controller.startDaemon();
    await waitFor(() => a.client.state === 'connected' && a.controller.state.epoch === 'epoch-2');
    expect(d.w.created).toBe(1);
    expect(a.controller.state.daemon).toBe('ok');
    expect(notices(a.controller)).toContain('The daemon is running again; re-attaching.');
    await a.controller.submit('after the stop');
    expect(d.w.submits).toEqual(['after the stop']);
  });
});
