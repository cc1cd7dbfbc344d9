/**
 * `approval.answer` / `clarify.answer` across real processes (run `npm run build` first): the
 * daemon is `hermes gateway start` in a temp root, the model a scripted server in this process,
 * the clients real WebSocket connections. A card restored from a `session.attach` snapshot — no
 * server request ever reached that client — is answered with an ordinary request and the command
 * runs; a second answer to the same id gets -32003 naming who won. Also: a choice that was not
 * offered denies (fail closed) with an error to the caller and an `error` event to the session;
 * a connection that is not attached is refused; an unknown id is -32003; a client that sent an
 * `instance_id` is `client:<id>` in `by`, across a reconnect (new connection id); clarify.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenRequest, WireEventOf } from '@hermes/core/protocol';
import { connect, type DaemonClient, RpcCallError } from '@hermes/client';
import { waitFor } from './support/gateway-process.js';
import {
  deferred,
  is,
  recordingClient,
  useGateway,
  type RecordingClient,
} from './support/gateway-session-kit.js';

const fx = useGateway('hermes-answer-');
const open: RecordingClient[] = [];
afterEach(() => {
  for (const r of open.splice(0)) r.c.socket.terminate();
});

/** A client that cannot receive server requests: it knows of requests only from snapshots. */
async function client(name: string, approvals = false): Promise<RecordingClient> {
  const r = await recordingClient(fx.root, name, approvals);
  open.push(r);
  return r;
}

/** A folder a scripted `rm -rf` deletes if the approval lets it run. */
function victim(name: string): string {
  const dir = join(fx.root, 'victims', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Starts a turn whose first tool call is `rm -rf dir`; resolves with the session id. */
async function turnDeleting(by: RecordingClient, dir: string, title: string): Promise<string> {
  const { session } = await by.c.request('session.create', { title, cwd: fx.root });
  await by.c.request('session.attach', { session_id: session.id });
  fx.model.push(
    { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${dir}` } }] },
    { echo: 'last_tool_result', prefix: 'tool said: ' },
  );
  await by.c.request('prompt.submit', { session_id: session.id, text: 'clean up' });
  return session.id;
}

/** Attaches `c` until the snapshot lists an open request; returns it (`c` stays attached). */
async function openRequestSeenBy(c: DaemonClient, sid: string): Promise<OpenRequest> {
  return waitFor(async () => {
    const snap = await c.request('session.attach', { session_id: sid });
    const req = snap.open_requests[0];
    if (!req) await c.request('session.detach', { session_id: sid });
    return req;
  }, 'an open request in the snapshot');
}

/** The JSON-RPC error a call fails with. */
async function rpcError(p: Promise<unknown>): Promise<RpcCallError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof RpcCallError)) throw new Error(`expected an RpcCallError, got ${String(err)}`);
  return err;
}

describe('approval.answer', () => {
  it('answers the card from the attach snapshot: the command runs; a second answer gets -32003', async () => {
    const dir = victim('snapshot');
    const submitter = await client('submitter');
    const sid = await turnDeleting(submitter, dir, 'snapshot card');

    const b = await client('window-b');
    const req = await openRequestSeenBy(b.c, sid);
    expect(req).toMatchObject({ kind: 'approval', params: { kind: 'approval', command: `rm -rf ${dir}` } });
    expect(b.events.some((e) => e.type === 'request.resolved')).toBe(false);
    const c = await client('window-c');
    await c.c.request('session.attach', { session_id: sid });

    const byB = `connection:${b.c.server!.connection_id}`;
    expect(
      await b.c.request('approval.answer', { session_id: sid, request_id: req.request_id, choice: 'once' }),
    ).toEqual({ resolved: true, by: byB, choice: 'once' });

    const late = await rpcError(
      c.c.request('approval.answer', { session_id: sid, request_id: req.request_id, choice: 'deny' }),
    );
    expect(late.code).toBe(-32003);
    expect(late.data).toEqual({ by: byB, choice: 'once' });
    expect(late.message).toContain(`answered first by ${byB}`);

    for (const r of [b, c, submitter]) {
      const resolved = await r.until(is('request.resolved', sid), 'request.resolved');
      expect(resolved.payload).toEqual({
        request_id: req.request_id,
        kind: 'approval',
        choice: 'once',
        by: byB,
      });
    }
    await submitter.until(is('turn.end', sid), 'turn.end');
    expect(existsSync(dir)).toBe(false); // "once" applied: the command ran
    expect(c.of(sid).filter((e) => e.type === 'request.resolved')).toHaveLength(1);
    const { messages } = await c.c.request('session.history', { session_id: sid });
    expect(messages.find((m) => m.role === 'tool')?.outcome?.approvals).toEqual([
      { choice: 'once', by: byB },
    ]);
  });

  it('a choice that was not offered denies at once: -32602 to the caller, an error event to the session', async () => {
    const dir = victim('not-offered');
    const submitter = await client('submitter-2');
    const sid = await turnDeleting(submitter, dir, 'bad choice');
    const b = await client('window-bad');
    const req = await openRequestSeenBy(b.c, sid);
    const bad = await rpcError(
      b.c.request('approval.answer', { session_id: sid, request_id: req.request_id, choice: 'ONCE' }),
    );
    expect(bad.code).toBe(-32602);
    expect(bad.message).toContain('the choice "ONCE" was not offered');
    expect(bad.message).toContain('allowed: "once", "session", "always", "deny"');
    expect(bad.message).toContain('the command was denied');
    const resolved = await submitter.until(is('request.resolved', sid), 'request.resolved');
    expect(resolved.payload).toMatchObject({ choice: 'deny', by: `connection:${b.c.server!.connection_id}` });
    const error = submitter.of(sid).find((e) => e.type === 'error' && e.payload.kind === 'request');
    expect(error?.seq).toBeLessThan(resolved.seq);
    await submitter.until(is('turn.end', sid), 'turn.end');
    expect(existsSync(dir)).toBe(true);
    // and now it is settled: a good answer is too late
    const again = await rpcError(
      b.c.request('approval.answer', { session_id: sid, request_id: req.request_id, choice: 'once' }),
    );
    expect(again.code).toBe(-32003);
  });

  it('refuses a connection that is not attached; an unknown id is -32003 with no winner', async () => {
    const dir = victim('not-attached');
    const submitter = await client('submitter-3');
    const sid = await turnDeleting(submitter, dir, 'not attached');
    const b = await client('window-looker');
    const req = await openRequestSeenBy(b.c, sid);
    const outsider = await client('outsider');
    const refused = await rpcError(
      outsider.c.request('approval.answer', { session_id: sid, request_id: req.request_id, choice: 'once' }),
    );
    expect(refused.code).toBe(-32602);
    expect(refused.message).toMatch(/not attached to session/);
    const unknown = await rpcError(
      b.c.request('approval.answer', { session_id: sid, request_id: 'approval-nope', choice: 'once' }),
    );
    expect(unknown.code).toBe(-32003);
    expect(unknown.data).toEqual({ by: null, choice: null });
    // still open: the request was not touched by either
    expect(
      await b.c.request('approval.answer', { session_id: sid, request_id: req.request_id, choice: 'deny' }),
    ).toMatchObject({ resolved: true, choice: 'deny' });
    await submitter.until(is('turn.end', sid), 'turn.end');
    expect(existsSync(dir)).toBe(true);
  });

  it('a client with an instance_id answers as client:<id>, also after reconnecting with a new connection id', async () => {
    const dir = victim('instance');
    const submitter = await client('submitter-4');
    const sid = await turnDeleting(submitter, dir, 'instance id');
    const first = await connect({ root: fx.root }, { name: 'tui', instanceId: 'win-1' });
    await openRequestSeenBy(first, sid);
    const firstConn = first.server!.connection_id;
    first.socket.terminate(); // a /profile round trip or a dropped network: a new connection
    const again = await connect({ root: fx.root }, { name: 'tui', instanceId: 'win-1' });
    try {
      expect(again.server!.connection_id).not.toBe(firstConn);
      const req = await openRequestSeenBy(again, sid);
      expect(
        await again.request('approval.answer', {
          session_id: sid,
          request_id: req.request_id,
          choice: 'once',
        }),
      ).toEqual({ resolved: true, by: 'client:win-1', choice: 'once' });
      await submitter.until(is('turn.end', sid), 'turn.end');
      expect(existsSync(dir)).toBe(false);
    } finally {
      again.socket.terminate();
    }
  });

  it('an old-style reply to approval.request still answers (same owner underneath)', async () => {
    const dir = victim('reply');
    const answerer = await client('replier', true);
    const asked = deferred<string>();
    answerer.c.onServerRequest('approval.request', (p) => {
      expect(p.kind).toBe('approval');
      asked.resolve(p.request_id);
      return { choice: 'once' };
    });
    const sid = await turnDeleting(answerer, dir, 'reply');
    const id = await asked.promise;
    const resolved = await answerer.until(is('request.resolved', sid), 'request.resolved');
    expect(resolved.payload).toMatchObject({ request_id: id, kind: 'approval', choice: 'once' });
    await answerer.until(is('turn.end', sid), 'turn.end');
    expect(existsSync(dir)).toBe(false);
  });
});

describe('clarify.answer', () => {
  it('answers a question from the snapshot; the model gets the answer', async () => {
    const submitter = await client('asker');
    const { session } = await submitter.c.request('session.create', { title: 'clarify', cwd: fx.root });
    const sid = session.id;
    await submitter.c.request('session.attach', { session_id: sid });
    fx.model.push(
      {
        toolCalls: [{ name: 'clarify', arguments: { question: 'Which branch?', choices: ['main', 'dev'] } }],
      },
      { echo: 'last_tool_result', prefix: 'tool said: ' },
    );
    await submitter.c.request('prompt.submit', { session_id: sid, text: 'deploy' });
    const b = await client('window-q');
    const req = await openRequestSeenBy(b.c, sid);
    expect(req).toMatchObject({ kind: 'clarify', params: { question: 'Which branch?' } });
    const wrong = await rpcError(
      b.c.request('approval.answer', { session_id: sid, request_id: req.request_id, choice: 'once' }),
    );
    expect(wrong.code).toBe(-32602);
    expect(wrong.message).toContain('clarify.answer');
    expect(
      await b.c.request('clarify.answer', {
        session_id: sid,
        request_id: req.request_id,
        answer: 'feature-x',
      }),
    ).toEqual({ resolved: true, by: `connection:${b.c.server!.connection_id}`, answer: 'feature-x' });
    const done = await submitter.until(
      (e): e is WireEventOf<'message.complete'> =>
        is('message.complete', sid)(e) && e.payload.text.startsWith('tool said'),
      'the reply with the tool result',
    );
    expect(String(done.payload.text)).toContain('feature-x');
    const resolved = submitter.of(sid).find((e) => e.type === 'request.resolved');
    expect(resolved?.payload).toMatchObject({ kind: 'clarify', choice: 'feature-x' });
  });
});
