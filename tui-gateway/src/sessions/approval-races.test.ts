/**
 * Races around one open approval or clarify question, in process: two clients answering at
 * once, the deadline against an answer, an interrupt against an answer. The first settlement
 * wins; every later answer is refused with -32003 naming who won; the agent and every client
 * learn one outcome.
 */
import { RpcErrorCode } from '@hermes/core/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionHarness, settle, until, type FakeClient } from './testing.js';

beforeEach(() => {
  // deadlines run on a fake clock; setImmediate stays real so frames keep flowing
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => vi.useRealTimers());

/** Two attached clients and a turn waiting on an approval both were asked. */
async function openApproval(opts: { approvalTimeoutS?: number } = {}) {
  const h = sessionHarness(opts);
  const a = await h.client('tui-a');
  const b = await h.client('tui-b');
  await h.attach(a);
  await h.attach(b);
  await h.submit(a, 'clean up');
  const turn = await h.agent.nextTurn();
  const answer = turn.approval('rm -rf build');
  await until(() => a.serverRequests.length === 1 && b.serverRequests.length === 1, 'both clients are asked');
  const requestId = String(a.serverRequests[0]!.params.request_id);
  const resolved = (c: FakeClient) => c.eventsOf('request.resolved').map((e) => e.payload);
  return { ...h, a, b, turn, answer, requestId, resolved };
}

describe('approval races', () => {
  it('two replies to the server request in the same tick: the first wins, once', async () => {
    const { a, b, answer, resolved } = await openApproval();
    a.reply(a.serverRequests[0]!, { choice: 'once' });
    b.reply(b.serverRequests[0]!, { choice: 'deny' });
    expect(await answer).toEqual({ choice: 'once', by: 'connection:c-1' });
    await settle();
    for (const c of [a, b]) {
      expect(resolved(c)).toEqual([
        expect.objectContaining({ choice: 'once', by: 'connection:c-1', kind: 'approval' }),
      ]);
    }
  });

  it('two approval.answer calls at once: one resolves, the other gets -32003 naming the winner', async () => {
    const { live, a, b, answer, requestId, resolved } = await openApproval();
    const params = { session_id: live.id, request_id: requestId };
    const [ra, rb] = await Promise.allSettled([
      b.call('approval.answer', { ...params, choice: 'session' }),
      a.call('approval.answer', { ...params, choice: 'deny' }),
    ]);
    expect(ra).toEqual({
      status: 'fulfilled',
      value: { resolved: true, by: 'connection:c-2', choice: 'session' },
    });
    expect(rb).toMatchObject({
      status: 'rejected',
      reason: { code: RpcErrorCode.RequestResolved, data: { by: 'connection:c-2', choice: 'session' } },
    });
    expect(await answer).toEqual({ choice: 'session', by: 'connection:c-2' });
    // a late reply to the (withdrawn) server request changes nothing
    a.reply(a.serverRequests[0]!, { choice: 'always' });
    await settle();
    expect(resolved(a)).toHaveLength(1);
    expect(resolved(b)).toEqual(resolved(a));
  });

  it('the deadline passes first: the agent gets deny by timeout, a later answer -32003', async () => {
    const { live, a, b, answer, requestId, resolved } = await openApproval({ approvalTimeoutS: 30 });
    vi.advanceTimersByTime(29_999);
    await settle();
    expect(resolved(a)).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(await answer).toEqual({ choice: 'deny', by: 'timeout' });
    await expect(
      b.call('approval.answer', { session_id: live.id, request_id: requestId, choice: 'once' }),
    ).rejects.toMatchObject({ code: RpcErrorCode.RequestResolved, message: /timed out/ });
    await settle();
    expect(resolved(a)).toEqual([expect.objectContaining({ choice: 'deny', by: 'timeout' })]);
    expect(resolved(b)).toEqual(resolved(a));
  });

  it('an answer just before the deadline wins; the deadline then settles nothing', async () => {
    const { live, a, answer, requestId, resolved } = await openApproval({ approvalTimeoutS: 30 });
    vi.advanceTimersByTime(29_999);
    await a.call('approval.answer', { session_id: live.id, request_id: requestId, choice: 'once' });
    vi.advanceTimersByTime(60_000);
    expect(await answer).toEqual({ choice: 'once', by: 'connection:c-1' });
    await settle();
    expect(resolved(a)).toEqual([expect.objectContaining({ choice: 'once', by: 'connection:c-1' })]);
  });

  it('an interrupt first: the request is withdrawn (deny by interrupt) and a later answer -32003', async () => {
    const { live, a, b, answer, requestId, resolved } = await openApproval();
    const [interrupted, late] = await Promise.allSettled([
      a.call('session.interrupt', { session_id: live.id }),
      b.call('approval.answer', { session_id: live.id, request_id: requestId, choice: 'once' }),
    ]);
    expect(interrupted).toEqual({ status: 'fulfilled', value: { interrupted: true } });
    expect(late).toMatchObject({
      status: 'rejected',
      reason: { code: RpcErrorCode.RequestResolved, data: { by: 'interrupt', choice: 'deny' } },
    });
    expect(await answer).toEqual({ choice: 'deny', by: 'interrupt' });
    await until(() => a.eventsOf('turn.end').length === 1, 'the turn ends');
    expect(a.eventsOf('turn.end')[0]!.payload).toMatchObject({ status: 'interrupted' });
    expect(resolved(b)).toEqual([expect.objectContaining({ choice: 'deny', by: 'interrupt' })]);
  });

  it('an answer first, then the interrupt: the answer stands, the turn still stops', async () => {
    const { live, a, b, answer, requestId, resolved } = await openApproval();
    await b.call('approval.answer', { session_id: live.id, request_id: requestId, choice: 'once' });
    expect(await a.call('session.interrupt', { session_id: live.id })).toEqual({ interrupted: true });
    expect(await answer).toEqual({ choice: 'once', by: 'connection:c-2' });
    await until(() => a.eventsOf('turn.end').length === 1, 'the turn ends');
    expect(resolved(a)).toEqual([expect.objectContaining({ choice: 'once', by: 'connection:c-2' })]);
  });
});

describe('clarify races', () => {
  it('only clients that answer clarify are asked; the first answer wins, the deadline then cancels nothing', async () => {
    const h = sessionHarness({ approvalTimeoutS: 30 });
    const asker = await h.client('tui', { approvals: true, clarify: true });
    const watcher = await h.client('watch', { approvals: true });
    await h.attach(asker);
    await h.attach(watcher);
    await h.submit(asker, 'plan');
    const turn = await h.agent.nextTurn();
    const reply = turn.clarify('which branch?', ['main', 'dev']);
    await until(() => asker.serverRequests.length === 1, 'the clarify-capable client is asked');
    await settle();
    expect(watcher.serverRequests).toEqual([]);
    const requestId = String(asker.serverRequests[0]!.params.request_id);
    const params = { session_id: h.live.id, request_id: requestId };
    const [first, second] = await Promise.allSettled([
      asker.call('clarify.answer', { ...params, answer: 'dev' }),
      watcher.call('clarify.answer', { ...params, answer: 'main' }),
    ]);
    expect(first).toEqual({
      status: 'fulfilled',
      value: { resolved: true, by: 'connection:c-1', answer: 'dev' },
    });
    expect(second).toMatchObject({ status: 'rejected', reason: { code: RpcErrorCode.RequestResolved } });
    vi.advanceTimersByTime(60_000);
    expect(await reply).toBe('dev');
  });

  it('an unanswered question is cancelled at its deadline: the agent’s clarify fails', async () => {
    const h = sessionHarness({ approvalTimeoutS: 30 });
    const c = await h.client();
    await h.attach(c);
    await h.submit(c, 'plan');
    const turn = await h.agent.nextTurn();
    const reply = turn.clarify('which branch?');
    await until(() => c.serverRequests.length === 1, 'the client is asked');
    vi.advanceTimersByTime(30_000);
    await expect(reply).rejects.toThrow(/did not answer/);
    await until(() => c.eventsOf('request.resolved').length === 1, 'the cancellation is announced');
    expect(c.eventsOf('request.resolved')[0]!.payload).toMatchObject({
      kind: 'clarify',
      choice: null,
      by: 'timeout',
    });
  });
});
