import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '@hermes/core/state';
import type { SessionPersistence } from './live-session-types.js';
import { RingBudget, ReplayRing } from './replay-ring.js';
import { catchUp, sessionInfo, snapshotUsage, type CatchUpSource } from './session-view.js';

const live = { id: 's1', profile: 'default', busy: false, clients: 1 };

/** A source with no stored messages and a ring holding `seqs`. */
function source(seqs: number[], over: Partial<CatchUpSource> = {}): CatchUpSource {
  const ring = new ReplayRing(new RingBudget());
  for (const seq of seqs)
    ring.push({ type: 'status.update', session_id: 's1', seq, ts: 0, payload: { state: 'idle' } }, 10);
  const store = { getMessages: () => [], getSession: () => undefined } as unknown as SessionPersistence;
  return {
    id: 's1',
    seq: seqs.at(-1) ?? 0,
    epoch: 'e1',
    store,
    ring,
    info: () => sessionInfo(undefined, live),
    inflight: null,
    queued: () => [],
    openRequests: () => [],
    lastUsage: undefined,
    ...over,
  };
}

describe('sessionInfo', () => {
  it('joins the stored record with the live state; defaults when the record cannot be read', () => {
    const info = sessionInfo(undefined, { ...live, notices: ['n'], approval: { mode: 'manual', own: true } });
    expect(info).toMatchObject({
      id: 's1',
      title: null,
      source: 'unknown',
      state: 'active',
      live: true,
      clients: 1,
    });
    expect(info).toMatchObject({ notices: ['n'], approval_mode: 'manual', approval_mode_own: true });
    const stored = sessionInfo({ title: 'T', source: 'cli', state: 'idle' } as SessionRecord, live);
    expect(stored).toMatchObject({ title: 'T', source: 'cli', state: 'idle' });
    expect('approval_mode' in stored).toBe(false);
  });
});

describe('catchUp', () => {
  it('replays the missed events while the ring holds them, else sends a truncated snapshot', () => {
    const replay = catchUp(source([1, 2, 3]), 1, 200);
    expect(replay.kind).toBe('replay');
    expect(replay.kind === 'replay' && replay.events.map((e) => e.seq)).toEqual([2, 3]);
    const future = catchUp(source([1, 2]), 9, 200);
    expect(future).toMatchObject({ kind: 'snapshot', truncated: true, seq: 2, epoch: 'e1' });
    expect(catchUp(source([1]), undefined, 200)).not.toHaveProperty('truncated');
  });

  it('a snapshot carries the last usage kept from session.usage', () => {
    const usage = snapshotUsage({
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
      context_tokens: 5,
    });
    expect(usage).toEqual({ total_tokens: 7, context_tokens: 5, context_window: null });
    expect(catchUp(source([], { lastUsage: usage }), undefined, 10)).toMatchObject({ usage });
  });
});
