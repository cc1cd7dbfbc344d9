/**
 * A client leaving while a question is open, in process: leaving is not answering. The request
 * stays open for the other clients and for clients that attach later (in their snapshot's
 * `open_requests` and as a server request), and without an answer it settles by its deadline.
 */
import { RpcErrorCode } from '@hermes/core/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionHarness, settle, until } from './testing.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => vi.useRealTimers());

/** One client attached, a turn waiting on its approval. */
async function askedAlone(approvalTimeoutS = 60) {
  const h = sessionHarness({ approvalTimeoutS });
  const first = await h.client('first');
  await h.attach(first);
  await h.submit(first, 'deploy');
  const turn = await h.agent.nextTurn();
  const answer = turn.approval('make deploy');
  await until(() => first.serverRequests.length === 1, 'the client is asked');
  const requestId = String(first.serverRequests[0]!.params.request_id);
  return { ...h, first, turn, answer, requestId };
}

describe('detach while a request is open', () => {
  it('session.detach: another attached client can still answer', async () => {
    const h = await askedAlone();
    const other = await h.client('other');
    await h.attach(other);
    await until(() => other.serverRequests.length === 1, 'the other client is asked too');
    expect(await h.first.call('session.detach', { session_id: h.live.id })).toEqual({ ok: true });
    // the one that left can no longer answer here: its server request was withdrawn ...
    h.first.reply(h.first.serverRequests[0]!, { choice: 'deny' });
    await settle();
    // ... and the answer method refuses it
    await expect(
      h.first.call('approval.answer', { session_id: h.live.id, request_id: h.requestId, choice: 'deny' }),
    ).rejects.toMatchObject({ code: RpcErrorCode.InvalidParams });
    expect(
      await other.call('approval.answer', { session_id: h.live.id, request_id: h.requestId, choice: 'once' }),
    ).toEqual({ resolved: true, by: 'connection:c-2', choice: 'once' });
    expect(await h.answer).toEqual({ choice: 'once', by: 'connection:c-2' });
  });

  it('the only client closes: a client attaching later sees it in its snapshot, is asked, and answers', async () => {
    const h = await askedAlone();
    h.first.close();
    await until(() => h.live.clients.size === 0, 'the closed client is detached');
    vi.advanceTimersByTime(30_000); // half the deadline
    const later = await h.client('later');
    const snap = await h.attach(later);
    expect(snap.open_requests).toEqual([
      expect.objectContaining({ request_id: h.requestId, kind: 'approval' }),
    ]);
    expect(snap.open_requests[0]!.params).toMatchObject({ command: 'make deploy' });
    await until(() => later.serverRequests.length === 1, 'the later client is asked');
    expect(later.serverRequests[0]!.params).toMatchObject({ request_id: h.requestId });
    later.reply(later.serverRequests[0]!, { choice: 'session' });
    expect(await h.answer).toEqual({ choice: 'session', by: 'connection:c-2' });
  });

  it('a re-attach with since_seq lists the open request, and it is sent again', async () => {
    const h = await askedAlone();
    const seen = h.live.seq;
    h.first.close();
    const back = await h.client('first');
    const r = await h.attach(back, { since_seq: seen });
    expect(r).toMatchObject({ kind: 'replay', open_requests: [{ request_id: h.requestId }] });
    await until(() => back.serverRequests.length === 1, 'the returning client is asked again');
  });

  it('nobody answers after the client left: the deadline denies, by timeout', async () => {
    const h = await askedAlone(30);
    h.first.close();
    await until(() => h.live.clients.size === 0, 'the closed client is detached');
    vi.advanceTimersByTime(30_000);
    expect(await h.answer).toEqual({ choice: 'deny', by: 'timeout' });
    const later = await h.client('later');
    const snap = await h.attach(later);
    expect(snap.open_requests).toEqual([]);
    await settle();
    expect(later.serverRequests).toEqual([]);
    // the settlement is in the ring for whoever replays it
    const replay = h.live.eventsSince(0);
    expect(replay.events.filter((e) => e.type === 'request.resolved').map((e) => e.payload)).toEqual([
      expect.objectContaining({ request_id: h.requestId, choice: 'deny', by: 'timeout' }),
    ]);
  });
});
