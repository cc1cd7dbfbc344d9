/**
 * The prompt queue of a live session, in process: prompts submitted while a turn runs wait,
 * are stored, and run one after the other in submission order whoever submitted them; dropping
 * and taking back prompts removes them (and their stored rows) and tells every client.
 */
import { describe, expect, it } from 'vitest';
import { sessionHarness, texts, until } from './testing.js';
import type { QueuedPrompt } from '@hermes/core/protocol';

describe('prompt queue', () => {
  it('prompts from two clients during a turn run after it, in submission order', async () => {
    const h = sessionHarness();
    const a = await h.client('a');
    const b = await h.client('b');
    await h.attach(a);
    await h.attach(b);
    expect(await h.submit(a, 'first')).toMatchObject({ status: 'started' });
    const first = await h.agent.nextTurn();
    expect(await h.submit(b, 'second')).toMatchObject({ status: 'queued' });
    expect(await h.submit(a, 'third')).toMatchObject({ status: 'queued' });
    expect(await h.submit(b, 'fourth')).toMatchObject({ status: 'queued' });
    // waiting prompts are stored, in order
    expect(h.store.rows.map((r) => r.text)).toEqual(['second', 'third', 'fourth']);
    const queuedNow = () => texts(a.eventsOf('prompt.queued').at(-1)!.payload.queued as QueuedPrompt[]);
    await until(() => a.eventsOf('prompt.queued').length === 3, 'three prompt.queued');
    expect(queuedNow()).toEqual(['second', 'third', 'fourth']);

    first.end();
    for (const text of ['second', 'third', 'fourth']) {
      const turn = await h.agent.nextTurn();
      expect(turn.text).toBe(text);
      turn.end();
    }
    await h.live.idle();
    expect(h.agent.started).toEqual(['first', 'second', 'third', 'fourth']);
    await until(() => b.eventsOf('turn.end').length === 4, 'four turns end');
    // every client saw the turns strictly one after the other, in order
    const bounds = b.events.filter((e) => e.type === 'turn.start' || e.type === 'turn.end');
    expect(bounds.map((e) => e.type)).toEqual([
      'turn.start',
      'turn.end',
      'turn.start',
      'turn.end',
      'turn.start',
      'turn.end',
      'turn.start',
      'turn.end',
    ]);
    expect(b.eventsOf('turn.start').map((e) => e.payload.text)).toEqual([
      'first',
      'second',
      'third',
      'fourth',
    ]);
    expect(queuedNow()).toEqual([]);
  });

  it('drop discards every waiting prompt; the running turn goes on and nothing else runs', async () => {
    const h = sessionHarness();
    const c = await h.client();
    await h.attach(c);
    await h.submit(c, 'running');
    const turn = await h.agent.nextTurn();
    await h.submit(c, 'later 1');
    await h.submit(c, 'later 2');
    const dropped = h.live.dropQueued();
    expect(texts(dropped)).toEqual(['later 1', 'later 2']);
    expect(h.store.rows).toEqual([]);
    await until(() => c.eventsOf('prompt.queued').length === 3, 'the drop is announced');
    expect(c.eventsOf('prompt.queued').at(-1)!.payload).toEqual({
      queued: [],
      dropped: dropped.map((p) => p.prompt_id),
    });
    turn.end();
    await h.live.idle();
    expect(h.agent.started).toEqual(['running']);
  });

  it('take-back removes only the picked prompts; the rest keep their order', async () => {
    const h = sessionHarness();
    const c = await h.client();
    await h.attach(c);
    await h.submit(c, 'running');
    const turn = await h.agent.nextTurn();
    for (const t of ['keep 1', 'mine 1', 'keep 2', 'mine 2']) await h.submit(c, t);
    const taken = h.live.takeQueued((p) => p.text.startsWith('mine'));
    expect(texts(taken)).toEqual(['mine 1', 'mine 2']);
    expect(texts(h.live.queued())).toEqual(['keep 1', 'keep 2']);
    expect(h.store.rows.map((r) => r.text)).toEqual(['keep 1', 'keep 2']);
    await until(() => c.eventsOf('prompt.queued').length === 5, 'the take-back is announced');
    expect(c.eventsOf('prompt.queued').at(-1)!.payload).toMatchObject({
      dropped: taken.map((p) => p.prompt_id),
    });
    turn.end();
    for (const text of ['keep 1', 'keep 2']) {
      const next = await h.agent.nextTurn();
      expect(next.text).toBe(text);
      next.end();
    }
    await h.live.idle();
    expect(h.agent.started).toEqual(['running', 'keep 1', 'keep 2']);
  });

  it('an interrupt stops the running turn only: the queued prompt runs next', async () => {
    const h = sessionHarness();
    const c = await h.client();
    await h.attach(c);
    await h.submit(c, 'long');
    await h.agent.nextTurn();
    await h.submit(c, 'next');
    expect(await c.call('session.interrupt', { session_id: h.live.id })).toEqual({ interrupted: true });
    const next = await h.agent.nextTurn();
    expect(next.text).toBe('next');
    next.end();
    await h.live.idle();
    expect(c.eventsOf('turn.end').map((e) => e.payload.status)).toEqual(['interrupted', 'complete']);
  });
});
