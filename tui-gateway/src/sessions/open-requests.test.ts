/**
 * The daemon's fan-out of open requests, in process with fake connections: who is sent what,
 * replies and `approval.answer` reaching the one owner (core/src/approvals/pending.ts), the
 * events in order, and a request that outlives the connection that was sent it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PendingRequest } from '@hermes/core/approvals';
import { RpcFailureError } from '../rpc/errors.js';
import type { Connection } from '../rpc/types.js';
import { answererOf, OpenRequests } from './open-requests.js';

interface FakeConn extends Connection {
  /** Server requests sent to it, with a way to answer each. */
  sent: Array<{
    method: string;
    params: Record<string, unknown>;
    signal: AbortSignal | undefined;
    reply: (result: unknown) => void;
    fail: (err: Error) => void;
  }>;
}

function fakeConn(
  id: string,
  caps: { approvals: boolean; clarify?: boolean },
  instanceId?: string,
): FakeConn {
  const sent: FakeConn['sent'] = [];
  return {
    id,
    clientName: 'test',
    capabilities: caps,
    profile: 'default',
    closed: false,
    ...(instanceId ? { instanceId } : {}),
    notify: () => {},
    onClose: () => {},
    sent,
    request(method, params, signal) {
      return new Promise((resolve, reject) => {
        sent.push({
          method,
          params: params as Record<string, unknown>,
          signal,
          reply: resolve,
          fail: reject,
        });
        signal?.addEventListener('abort', () => reject(new Error('withdrawn')), { once: true });
      });
    },
  };
}

function setup(conns: FakeConn[]) {
  const events: string[] = [];
  const requests = new OpenRequests(
    () => 's1',
    () => conns,
    (id, kind, answer, by) => events.push(`resolved ${kind} ${id} ${String(answer)} ${by}`),
    () => 1_000,
    (message) => events.push(`error ${message}`),
  );
  return { requests, events };
}

const guardRequest = (id = 'g1', choices = ['once', 'session', 'always', 'deny']) =>
  new PendingRequest({ kind: 'approval', id, choices, timeoutMs: 60_000 });
const params = { command: 'rm -rf build', description: 'recursive delete', choices: ['once', 'deny'] };

describe('OpenRequests', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the guard’s request to the clients that answer approvals, and takes the first reply', async () => {
    const a = fakeConn('c-a', { approvals: true }, 'win-a');
    const b = fakeConn('c-b', { approvals: true });
    const watcher = fakeConn('c-w', { approvals: false });
    const { requests, events } = setup([a, b, watcher]);
    const req = guardRequest();
    const settled = requests.present(req, params);
    expect(requests.list()).toEqual([
      {
        request_id: 'g1',
        kind: 'approval',
        params: {
          ...params,
          session_id: 's1',
          request_id: 'g1',
          kind: 'approval',
          expires_at: req.expiresAt,
        },
        created_at: req.createdAt,
        expires_at: req.expiresAt,
      },
    ]);
    expect([a.sent.length, b.sent.length, watcher.sent.length]).toEqual([1, 1, 0]);
    expect(a.sent[0]!.method).toBe('approval.request');
    a.sent[0]!.reply({ choice: 'once' });
    await expect(settled).resolves.toMatchObject({ value: 'once', by: 'client:win-a' });
    expect(b.sent[0]!.signal?.aborted).toBe(true); // the others drop their prompt
    b.sent[0]!.reply({ choice: 'deny' }); // too late: changes nothing
    expect(events).toEqual(['resolved approval g1 once client:win-a']);
    expect(requests.list()).toEqual([]);
  });

  it('approval.answer wins over a pending server request; a later one learns who won', () => {
    const a = fakeConn('c-a', { approvals: true });
    const { requests, events } = setup([a]);
    requests.present(guardRequest(), params);
    expect(
      requests.answer('approval', 'g1', 'once', answererOf(fakeConn('c-b', { approvals: false }))),
    ).toMatchObject({
      status: 'accepted',
      settlement: { value: 'once', by: 'connection:c-b' },
    });
    expect(a.sent[0]!.signal?.aborted).toBe(true);
    expect(requests.answer('approval', 'g1', 'deny', 'connection:c-a')).toMatchObject({
      status: 'resolved',
      settlement: { by: 'connection:c-b' },
    });
    expect(events).toEqual(['resolved approval g1 once connection:c-b']);
  });

  it('an unusable reply or a JSON-RPC error reply denies, the error event first', async () => {
    const a = fakeConn('c-a', { approvals: true });
    const { requests, events } = setup([a]);
    requests.present(guardRequest('g1', ['once', 'deny']), params);
    a.sent[0]!.reply({ choice: 'session' });
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events[0]).toMatch(
      /^error approval request g1: connection:c-a gave no usable answer \(the choice "session" was not offered; allowed: "once", "deny"\)/,
    );
    expect(events[1]).toBe('resolved approval g1 deny connection:c-a');

    requests.present(guardRequest('g2'), params);
    a.sent[1]!.fail(new RpcFailureError(-32603, 'could not show it'));
    await vi.waitFor(() => expect(events).toHaveLength(4));
    expect(events[2]).toContain('could not show it [-32603]');
    expect(events[3]).toBe('resolved approval g2 deny connection:c-a');
  });

  it('a client that goes away has not answered: the request stays open for the next one', async () => {
    const a = fakeConn('c-a', { approvals: true });
    const conns = [a];
    const { requests, events } = setup(conns);
    const settled = requests.present(guardRequest(), params);
    requests.dropConnection(a);
    expect(requests.list()).toHaveLength(1);
    const b = fakeConn('c-b', { approvals: true });
    conns.push(b);
    requests.sendOpenTo(b);
    requests.sendOpenTo(b); // once per connection
    expect(b.sent).toHaveLength(1);
    b.sent[0]!.reply({ choice: 'once' });
    await expect(settled).resolves.toMatchObject({ value: 'once', by: 'connection:c-b' });
    expect(events).toEqual(['resolved approval g1 once connection:c-b']);
  });

  it('a clarify question opened here times out to cancelled; an interrupt withdraws approvals', async () => {
    const a = fakeConn('c-a', { approvals: true, clarify: true });
    const { requests, events } = setup([a]);
    const q = requests.open('clarify', { question: 'Which branch?' }, 5_000);
    expect(a.sent[0]).toMatchObject({
      method: 'clarify.request',
      params: { kind: 'clarify', expires_at: 6_000 },
    });
    vi.advanceTimersByTime(5_000);
    await expect(q).resolves.toMatchObject({ value: null, by: 'timeout', how: 'timeout' });
    const approval = requests.present(guardRequest('g9'), params);
    requests.cancelAll('interrupt');
    await expect(approval).resolves.toMatchObject({ value: 'deny', by: 'interrupt' });
    expect(events.at(-1)).toBe('resolved approval g9 deny interrupt');
  });
});
