/**
 * Shutdown robustness of the daemon, across real processes (run `npm run build` first):
 * - `hermes gateway stop` with a model call that hangs does not wait `drain_timeout`: the stuck
 *   turn is interrupted (partial reply stored `interrupted`, clients told), the daemon exits.
 * - prompts queued behind a running turn survive a graceful stop and a `kill -9`: after the restart
 *   they are listed **held** in the session's queue, never run by themselves; `/queue run` runs
 *   them, `/queue drop` discards them.
 */
import { describe, expect, it } from 'vitest';
import type { QueuedPrompt, WireEventOf } from '@hermes/core/protocol';
import { hermes, pidRuns, waitFor } from './support/gateway-process.js';
import {
  deltaText,
  is,
  startGateway,
  showSession,
  useDaemonRoots,
  type RecordingClient,
  type ShownMessage,
} from './support/gateway-session-kit.js';

const fx = useDaemonRoots('hermes-drainq-');
const root = (configExtra = ''): string => fx.root(configExtra);
const client = (r: string, name: string): Promise<RecordingClient> => fx.client(r, name);

type Row = ShownMessage;
const rows = (messages: Row[]) =>
  messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content, m.status ?? null]);

const queueOf = (e: { payload: Record<string, unknown> }): QueuedPrompt[] =>
  e.payload.queued as QueuedPrompt[];

/** The snapshot of a fresh attach. */
async function snapshot(c: RecordingClient, sid: string) {
  const snap = await c.c.request('session.attach', { session_id: sid });
  if (snap.kind !== 'snapshot') throw new Error('expected a snapshot');
  return snap;
}

describe('hermes gateway stop while a model call hangs', () => {
  it('interrupts the stuck turn at once, keeps its partial reply and holds the queued prompt', async () => {
    const drainTimeoutS = 60;
    const r = root(`gateway:\n  drain_timeout: ${drainTimeoutS}\n`);
    await startGateway(r);
    const a = await client(r, 'hang-a');
    const { session } = await a.c.request('session.create', { title: 'hung' });
    const sid = session.id;
    await a.c.request('session.attach', { session_id: sid });
    const partial = 'partial before the hang';
    fx.model.push({ hang: true, text: partial, chunkSize: 5 });
    await a.c.request('prompt.submit', { session_id: sid, text: 'hang please' });
    await waitFor(() => deltaText(a.of(sid)) === partial, 'the partial text');
    const queued = await a.c.request('prompt.submit', { session_id: sid, text: 'queued behind it' });
    expect(queued.status).toBe('queued');

    const t0 = Date.now();
    const stop = await hermes(r, ['gateway', 'stop']);
    const took = Date.now() - t0;
    expect(stop.code, stop.stderr).toBe(0);
    // without the stall rule the stop waits the whole drain_timeout (60 s)
    expect(took).toBeLessThan((drainTimeoutS * 1000) / 2);

    // the client was told: the queued prompt is held, the turn interrupted and why
    const held = await a.until((e) => is('prompt.queued', sid)(e) && queueOf(e).some((q) => q.held), 'held');
    expect(queueOf(held)).toEqual([
      expect.objectContaining({ prompt_id: queued.prompt_id, text: 'queued behind it', held: true }),
    ]);
    const told = a
      .of(sid)
      .filter((e): e is WireEventOf<'error'> => e.type === 'error' && e.payload.kind === 'shutdown');
    expect(told.map((e) => String(e.payload.message))).toEqual([
      expect.stringMatching(/1 queued prompt\(s\) did not run\. They are kept/),
      expect.stringMatching(/this turn was interrupted \(no progress for \d+ s\)/),
    ]);
    expect((await a.until(is('turn.end', sid), 'turn.end')).payload.status).toBe('interrupted');
    expect(a.of(sid).filter((e) => e.type === 'turn.start')).toHaveLength(1); // the queued one never ran

    const stored = await showSession(r, sid);
    expect(stored.session.state).toBe('resume_pending');
    expect(rows(stored.messages)).toEqual([
      ['user', 'hang please', null],
      ['assistant', partial, 'interrupted'],
    ]);

    // after the restart: interrupted, the partial reply kept, the prompt still waiting (held)
    await startGateway(r);
    const b = await client(r, 'hang-b');
    const snap = await snapshot(b, sid);
    expect(snap.session.state).toBe('interrupted');
    expect(rows(snap.messages)).toEqual(rows(stored.messages));
    expect(snap.queued).toEqual([
      { prompt_id: queued.prompt_id, text: 'queued behind it', by: expect.any(String), held: true },
    ]);
    const dropped = await b.c.request('slash.exec', { session_id: sid, command: '/queue drop' });
    expect(dropped.output).toBe('Dropped 1 prompt(s).');
    expect((await snapshot(b, sid)).queued).toEqual([]);
  }, 90_000);
});

describe('kill -9 with a prompt queued behind a running turn', () => {
  it('keeps the prompt: held after the restart, not run by itself, run by /queue run', async () => {
    const r = root();
    const first = await startGateway(r);
    const a = await client(r, 'kill-a');
    const { session } = await a.c.request('session.create', { title: 'queue-crash' });
    const sid = session.id;
    await a.c.request('session.attach', { session_id: sid });
    fx.model.push({ hang: true, text: 'half', chunkSize: 4 });
    await a.c.request('prompt.submit', { session_id: sid, text: 'running' });
    await waitFor(() => deltaText(a.of(sid)) === 'half', 'the partial text');
    const queued = await a.c.request('prompt.submit', { session_id: sid, text: 'typed while it ran' });
    expect(queued.status).toBe('queued');
    await a.until((e) => is('prompt.queued', sid)(e) && queueOf(e).length === 1, 'prompt.queued');

    process.kill(first.pid, 'SIGKILL');
    await a.c.closed;
    await waitFor(() => !pidRuns(first.pid), 'the killed daemon to be gone');

    await startGateway(r);
    const b = await client(r, 'kill-b');
    const snap = await snapshot(b, sid);
    expect(snap.session.state).toBe('interrupted');
    expect(snap.queued).toEqual([
      { prompt_id: queued.prompt_id, text: 'typed while it ran', by: expect.any(String), held: true },
    ]);
    const listed = await b.c.request('slash.exec', { session_id: sid, command: '/queue' });
    expect(listed.output).toContain('1. [held] typed while it ran');

    // a new prompt runs at once and the held one stays held after it
    fx.model.push({ text: 'answer to new' }, { text: 'answer to held' });
    const fresh = await b.c.request('prompt.submit', { session_id: sid, text: 'new one' });
    expect(fresh.status).toBe('started');
    const end = await b.until(is('turn.end', sid), 'turn.end of the new prompt');
    expect(end.payload).toMatchObject({ prompt_id: fresh.prompt_id, status: 'complete' });
    expect((await snapshot(b, sid)).queued).toEqual([expect.objectContaining({ held: true })]);

    const run = await b.c.request('slash.exec', { session_id: sid, command: '/queue run' });
    expect(run.output).toBe('Running 1 held prompt(s).');
    const start = await b.until(
      (e): e is WireEventOf<'turn.start'> =>
        is('turn.start', sid)(e) && e.payload.prompt_id === queued.prompt_id,
      'the held prompt starts',
    );
    expect(start.payload.text).toBe('typed while it ran');
    await b.until((e) => is('turn.end', sid, start.seq)(e), 'its turn.end');
    const after = await snapshot(b, sid);
    expect(after.queued).toEqual([]);
    expect(
      rows(after.messages)
        .filter((m) => m[0] === 'user')
        .map((m) => m[1]),
    ).toEqual(['running', 'new one', 'typed while it ran']);
  }, 60_000);
});
