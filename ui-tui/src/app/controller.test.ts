import { afterEach, describe, expect, it } from 'vitest';
import { DaemonClient } from '@hermes/client';
import type { AttachResult } from '@hermes/client';
import { RpcErrorCode } from '@hermes/core/constants';
import type { WireEvent } from '@hermes/core/protocol';
import { sessionInfo, snapshotResult, stored } from '../testing/fixtures.js';
import { startTestServer, waitFor, type TestConn, type TestServer } from '@hermes/client/testing';
import { EMPTY_SCAN } from '../state/reply-parts.js';
import { initialSessionState, type SessionAction } from '../state/session-reducer.js';
import type { SessionState } from '../state/types.js';
import { SessionController } from './controller.js';
import { PAINT_FIRST_CHARS, paintFirst } from './paint-policy.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The real client and controller against a scripted server that records events for replay. */
async function setup() {
  const server: TestServer = await startTestServer();
  cleanups.push(() => server.close());
  const events: Array<{ type: string; seq: number; payload: Record<string, unknown> }> = [];
  const emit = (conn: TestConn, type: string, payload: Record<string, unknown> = {}): void => {
    const seq = events.length + 1;
    events.push({ type, seq, payload });
    conn.event(type, 's1', seq, payload);
  };
  server.handlers.set('session.list', () => ({ sessions: [sessionInfo()] }));
  server.handlers.set('session.attach', (p): AttachResult => {
    const since = p.since_seq as number | undefined;
    if (since === undefined) {
      return snapshotResult({
        messages: [stored('user', 'earlier'), stored('assistant', 'before')],
        seq: events.length,
      });
    }
    return {
      kind: 'replay',
      session: sessionInfo(),
      events: events.filter((e) => e.seq > since).map((e) => ({ ...e, session_id: 's1' }) as WireEvent),
      open_requests: [],
      seq: events.length,
      epoch: 'epoch-1',
    };
  });
  const client = new DaemonClient({
    endpoint: { url: server.url, token: server.token },
    name: 'hermes-tui',
    version: 'test',
    capabilities: { approvals: true, clarify: true },
    reconnect: true,
    backoff: { initialMs: 10, maxMs: 30 },
  });
  cleanups.push(() => client.close());
  const controller = new SessionController({ client, cwd: '/w', throttleMs: 0 });
  cleanups.push(() => controller.dispose());
  await controller.start({ mode: 'continue' });
  const conn = await server.waitForConns(1);
  return { server, client, controller, conn, emit };
}

const texts = (c: SessionController): string[] =>
  c.state.items.map((i) => (i.kind === 'tool' ? `tool:${i.toolId}` : `${i.kind}:${i.text}`));

describe('SessionController with the real client', () => {
  it('shows a turn that finished while disconnected exactly once after re-attaching', async () => {
    const { server, controller, conn, emit } = await setup();
    expect(texts(controller)).toEqual(['user:earlier', 'assistant:before']);
    emit(conn, 'turn.start', { prompt_id: 'p1', text: 'go' });
    emit(conn, 'message.start');
    emit(conn, 'message.delta', { text: 'Work' });
    await waitFor(() => controller.state.streaming?.text === 'Work');
    conn.ws.terminate();
    await waitFor(() => controller.state.connection === 'reconnecting');
    // while nobody is attached the turn goes on (recorded for replay)
    const ghost = { event: () => {} } as unknown as TestConn;
    emit(ghost, 'message.delta', { text: 'ing on it' });
    emit(ghost, 'message.complete', { text: 'Working on it', status: 'complete', usage: {} });
    emit(ghost, 'turn.end', { prompt_id: 'p1', status: 'complete' });
    const conn2 = await server.waitForConns(2);
    await waitFor(() => controller.state.connection === 'connected' && !controller.state.busy);
    expect(conn2.requests.find((r) => r.method === 'session.attach')?.params).toMatchObject({ since_seq: 3 });
    expect(texts(controller)).toEqual([
      'user:earlier',
      'assistant:before',
      'user:go',
      'assistant:Working on it',
    ]);
    expect(controller.state.streaming).toBeNull();
  });

  it('sends an answer given while disconnected with approval.answer after the re-attach; the re-sent request gets no reply', async () => {
    const { server, controller, conn } = await setup();
    server.handlers.set('approval.answer', (p) => ({ resolved: true, by: 'client:x', choice: p.choice }));
    server.handlers.set('prompt.submit', () => ({ prompt_id: 'p9', status: 'started' }));
    const params = {
      session_id: 's1',
      request_id: 'approval-1',
      kind: 'approval',
      command: 'rm -rf x',
      description: 'd',
      choices: ['once', 'deny'],
    };
    conn.send({ jsonrpc: '2.0', id: 'srq-1', method: 'approval.request', params });
    await waitFor(() => controller.state.requests.length === 1);
    conn.ws.terminate();
    await waitFor(() => controller.state.connection === 'reconnecting');
    controller.answerApproval('approval-1', 'once'); // answered while the connection was down
    expect(controller.state.requests).toEqual([]);
    await waitFor(() =>
      texts(controller).includes('notice:Not connected: your answer will be sent after reconnecting.'),
    );
    const conn2 = await server.waitForConns(2);
    await waitFor(() => conn2.requests.some((r) => r.method === 'approval.answer'));
    expect(conn2.requests.find((r) => r.method === 'approval.answer')?.params).toEqual({
      session_id: 's1',
      request_id: 'approval-1',
      choice: 'once',
    });
    // the daemon re-sends the still-open request: it was answered by request, so no reply
    conn2.send({ jsonrpc: '2.0', id: 'srq-9', method: 'approval.request', params });
    await controller.submit('after'); // a round trip behind it on the same socket
    await waitFor(() => conn2.requests.some((r) => r.method === 'prompt.submit'));
    expect(conn2.answers.has('srq-9')).toBe(false);
    expect(controller.state.requests).toEqual([]);
    expect(conn.answers.has('srq-1')).toBe(false);
  });

  it('sends a prompt with the session id', async () => {
    const { server, controller } = await setup();
    server.handlers.set('prompt.submit', () => ({ prompt_id: 'p9', status: 'queued' }));
    await controller.submit('next');
    const conn = server.conns[0]!;
    expect(conn.requests.find((r) => r.method === 'prompt.submit')?.params).toEqual({
      session_id: 's1',
      text: 'next',
    });
  });
});

describe('SessionController with images', () => {
  it('sends the pending images with the next prompt; a refused prompt gives them back', async () => {
    const { server, controller } = await setup();
    const img = { kind: 'image' as const, path: '/w/dot.png', name: 'dot.png', bytes: 69 };
    let refuse = true;
    server.handlers.set('prompt.submit', () => {
      if (refuse) throw new Error('model fake cannot take images');
      return { prompt_id: 'p9', status: 'started' };
    });
    controller.attachments.add(img);
    await controller.submit('look');
    expect(texts(controller).at(-1)).toMatch(/Message not sent: .*cannot take images/);
    expect(controller.attachments.getSnapshot()).toEqual([img]); // kept for the next try
    refuse = false;
    await controller.submit('look again');
    const sent = server.conns[0]!.requests.filter((r) => r.method === 'prompt.submit').map((r) => r.params);
    expect(sent.at(-1)).toEqual({
      session_id: 's1',
      text: 'look again',
      attachments: [{ kind: 'image', path: '/w/dot.png', name: 'dot.png' }],
    });
    expect(controller.attachments.size).toBe(0);
  });
});

describe('drawing the end of a reply (paintFirst)', () => {
  const complete = {
    type: 'event',
    event: { type: 'message.complete', session_id: 's1', seq: 9, payload: {} },
    now: 0,
  } as unknown as SessionAction;
  const streaming = (text: string, cut: number): SessionState => ({
    ...initialSessionState(),
    streaming: { text, reasoning: '', scan: { ...EMPTY_SCAN, pos: cut, cut } },
  });

  it('draws a short rest in the frame of the last delta, a long one after it', () => {
    const long = 'x'.repeat(PAINT_FIRST_CHARS + 1);
    expect(paintFirst(complete, streaming('a short reply', 0))).toBe(false);
    // a long reply whose earlier blocks are printed: only its rest counts
    expect(paintFirst(complete, streaming(`${long}\n\nlast block`, long.length + 2))).toBe(false);
    // one long block still to print (a long code block, printed whole at the end): drawn first
    expect(paintFirst(complete, streaming(long, 0))).toBe(true);
    expect(paintFirst(complete, { ...initialSessionState(), streaming: null })).toBe(false);
    const delta = {
      ...complete,
      event: { type: 'message.delta', payload: { text: 'x' } },
    } as unknown as SessionAction;
    expect(paintFirst(delta, streaming(long, 0))).toBe(false);
  });
});

describe('/clear and /history', () => {
  it('after /clear, /history prints the cleared messages again, then says the session starts there', async () => {
    const { server, controller } = await setup();
    const all = [stored('user', 'earlier'), stored('assistant', 'before')];
    const asked: unknown[] = [];
    server.handlers.set('session.history', (p) => {
      asked.push(p);
      const before = (p.before as number | undefined) ?? Infinity;
      const older = all.filter((m) => m.id < before);
      const limit = p.limit as number;
      return { messages: older.slice(-limit), has_more: older.length > limit };
    });
    expect(texts(controller)).toEqual(['user:earlier', 'assistant:before']);
    await controller.loadOlder(10);
    expect(texts(controller).at(-1)).toBe('notice:No older messages in this session.');
    await controller.clear();
    expect(controller.state.items).toEqual([]);
    await controller.loadOlder(10);
    expect(asked.at(-1)).toEqual({ session_id: 's1', before: all[1]!.id + 1, limit: 10 });
    expect(texts(controller)).toEqual([
      'notice:── 2 earlier messages of this session ──',
      'user:earlier',
      'assistant:before',
      'notice:── end of earlier messages (the session starts here) ──',
    ]);
  });
});

describe('SessionController without a session', () => {
  it('says no session is open (not "not connected") when the start session was not found, and sends the message to the next one', async () => {
    const server: TestServer = await startTestServer();
    cleanups.push(() => server.close());
    server.handlers.set('session.list', () => ({ sessions: [sessionInfo()] }));
    server.handlers.set('session.history', () => {
      throw Object.assign(new Error('no session nosuch'), { code: RpcErrorCode.SessionNotFound });
    });
    server.handlers.set('session.create', () => ({ session: sessionInfo({ id: 's2' }) }));
    server.handlers.set('session.attach', () =>
      snapshotResult({ session: sessionInfo({ id: 's2' }), seq: 0 }),
    );
    const submitted: unknown[] = [];
    server.handlers.set('prompt.submit', (p) => {
      submitted.push(p);
      return { prompt_id: 'p1', status: 'started' };
    });
    const client = new DaemonClient({
      endpoint: { url: server.url, token: server.token },
      name: 'hermes-tui',
      version: 'test',
      capabilities: { approvals: true },
    });
    cleanups.push(() => client.close());
    const controller = new SessionController({ client, cwd: '/w', throttleMs: 0 });
    cleanups.push(() => controller.dispose());
    await controller.start({ mode: 'session', session: 'nosuch' });
    expect(texts(controller)).toContain('notice:No session with id or title "nosuch" in this profile.');
    await controller.submit('hello');
    const said = texts(controller).at(-1);
    expect(said).toBe(
      'notice:No session is open: /new starts one, /sessions or /resume picks one; the message is sent to it.',
    );
    await controller.newSession();
    expect(texts(controller)).toContain('notice:New session s2.'); // no previous one to speak of
    await waitFor(() => submitted.length === 1);
    expect(submitted[0]).toMatchObject({ session_id: 's2', text: 'hello' });
  });
});
