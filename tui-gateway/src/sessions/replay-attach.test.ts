/**
 * Catching up, in process: a client that re-attaches with `since_seq` gets exactly the events it
 * missed, in order, none twice, then the live ones; a `since_seq` the replay ring no longer
 * covers (or from another daemon run) gets a snapshot marked `truncated`; a client attaching
 * while a reply streams gets the partial text once in its snapshot and then only the rest.
 */
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { RingBudget } from './replay-ring.js';
import { sessionHarness, until, type FakeClient } from './testing.js';

const seqs = (events: WireEvent[]) => events.map((e) => e.seq);
const deltas = (events: WireEvent[]) =>
  events
    .filter((e) => e.type === 'message.delta')
    .map((e) => String(e.payload.text))
    .join('');
/** The client's highest seq so far. */
const lastSeq = (c: FakeClient) => Math.max(0, ...seqs(c.events));

describe('re-attach with since_seq', () => {
  it('replays exactly the missed events, in order, then continues live without a gap or a repeat', async () => {
    const h = sessionHarness();
    const first = await h.client('tui');
    await h.attach(first);
    await h.submit(first, 'tell a story');
    const turn = await h.agent.nextTurn();
    turn.delta('Once ');
    turn.delta('upon ');
    await until(() => deltas(first.events) === 'Once upon ', 'the first deltas arrive');
    const seen = lastSeq(first);
    first.close();
    await until(() => h.live.clients.size === 0, 'the closed client is detached');
    turn.delta('a time');
    turn.delta('.');

    const again = await h.client('tui');
    const r = await h.attach(again, { since_seq: seen });
    expect(r.kind).toBe('replay');
    if (r.kind !== 'replay') return;
    const missed = r.events;
    expect(seqs(missed)).toEqual(Array.from({ length: r.seq - seen }, (_, i) => seen + 1 + i));
    expect(deltas(missed)).toBe('a time.');
    expect(missed.map((e) => e.type)).toEqual([
      'session.info', // the first client left
      'message.delta',
      'message.delta',
    ]);
    turn.delta(' The end.');
    turn.end();
    await until(() => again.eventsOf('turn.end').length === 1, 'the turn ends');
    // live events after the replay: strictly after r.seq, contiguous, none repeated
    const live = again.events;
    expect(seqs(live)).toEqual(Array.from({ length: live.length }, (_, i) => r.seq + 1 + i));
    expect(deltas([...first.events, ...missed, ...live])).toBe('Once upon a time. The end.');
  });

  it('a since_seq equal to the latest seq replays nothing', async () => {
    const h = sessionHarness();
    const c = await h.client();
    await h.attach(c);
    const r = await h.attach(c, { since_seq: h.live.seq });
    expect(r).toMatchObject({ kind: 'replay', events: [], seq: h.live.seq });
  });

  it('a since_seq older than the ring holds gets a truncated snapshot instead', async () => {
    // a budget of ~2 KiB keeps only the newest few events
    const h = sessionHarness({ budget: new RingBudget(2_000) });
    const c = await h.client();
    await h.attach(c);
    await h.submit(c, 'go');
    const turn = await h.agent.nextTurn();
    for (let i = 0; i < 40; i++) turn.delta(`chunk ${i} `.padEnd(100, '.'));
    const latest = h.live.seq;
    const r = await h.attach(await h.client(), { since_seq: 1 });
    // the snapshot is as of the latest event (the attach's own session.info comes after it)
    expect(r).toMatchObject({ kind: 'snapshot', truncated: true, seq: latest });
    if (r.kind !== 'snapshot') return;
    // the snapshot still carries the whole partial reply
    expect(r.inflight?.text).toContain('chunk 0 ');
    expect(r.inflight?.text).toContain('chunk 39 ');
    // what is still held is still replayed
    const recent = await h.attach(await h.client(), { since_seq: h.live.seq - 2 });
    expect(recent).toMatchObject({ kind: 'replay' });
  });

  it('a since_seq from the future (another daemon run) gets a truncated snapshot', async () => {
    const h = sessionHarness();
    const c = await h.client();
    const r = await h.attach(c, { since_seq: 10_000 });
    expect(r).toMatchObject({ kind: 'snapshot', truncated: true, epoch: 'epoch-1' });
  });
});

describe('attach while a reply streams', () => {
  it('the snapshot holds the partial text; the client then gets only the rest, once', async () => {
    const h = sessionHarness();
    const writer = await h.client('writer');
    await h.attach(writer);
    await h.submit(writer, 'greet');
    const turn = await h.agent.nextTurn();
    turn.delta('Hel');
    turn.delta('lo');
    const late = await h.client('late');
    const snap = await h.attach(late);
    expect(snap.kind).toBe('snapshot');
    if (snap.kind !== 'snapshot') return;
    expect(snap.inflight).toMatchObject({ prompt: 'greet', text: 'Hello' });
    turn.delta(', ');
    turn.delta('world');
    turn.end();
    await until(() => late.eventsOf('turn.end').length === 1, 'the late client sees the turn end');
    // nothing at or before the snapshot's seq is sent again
    expect(late.events.every((e) => e.seq > snap.seq)).toBe(true);
    expect(snap.inflight!.text + deltas(late.events)).toBe('Hello, world');
    expect(deltas(writer.events)).toBe('Hello, world');
  });

  it('a client attaching between turns gets no in-flight state', async () => {
    const h = sessionHarness();
    const c = await h.client();
    await h.attach(c);
    await h.submit(c, 'one');
    const turn = await h.agent.nextTurn();
    turn.delta('done');
    turn.end();
    await until(() => c.eventsOf('turn.end').length === 1, 'the turn ends');
    const snap = await h.attach(await h.client());
    expect(snap).toMatchObject({ kind: 'snapshot', inflight: null });
  });
});
