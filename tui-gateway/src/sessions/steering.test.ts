/**
 * Steering a running turn, in process: guidance reaches the agent at its next step boundary in
 * order, every client hears of it, and guidance that finds no boundary (the turn ended first, or
 * none was running) runs as the next prompt — ahead of other queued prompts, never lost.
 */
import { describe, expect, it } from 'vitest';
import { sessionHarness, until } from './testing.js';

describe('steering', () => {
  it('guidance given during a turn is handed over at the next step boundary, in order', async () => {
    const h = sessionHarness();
    const a = await h.client('a');
    const b = await h.client('b');
    await h.attach(a);
    await h.attach(b);
    await h.submit(a, 'build it');
    const turn = await h.agent.nextTurn();
    expect(await a.call('session.steer', { session_id: 's-1', text: 'use tabs' })).toMatchObject({
      status: 'pending',
    });
    await b.call('session.steer', { session_id: 's-1', text: 'and no semicolons' });
    expect(turn.boundary()).toEqual(['use tabs', 'and no semicolons']);
    expect(turn.boundary()).toEqual([]); // taken once
    turn.end();
    await h.live.idle();
    // nothing ran as a prompt of its own
    expect(h.agent.started).toEqual(['build it']);
    await until(() => b.eventsOf('prompt.steered').length === 4, 'four prompt.steered on b');
    expect(b.eventsOf('prompt.steered').map((e) => [e.payload.text, e.payload.state])).toEqual([
      ['use tabs', 'pending'],
      ['and no semicolons', 'pending'],
      ['use tabs', 'delivered'],
      ['and no semicolons', 'delivered'],
    ]);
  });

  it('guidance that arrives after the last boundary runs as the next prompt, ahead of the queue', async () => {
    const h = sessionHarness();
    const c = await h.client();
    await h.attach(c);
    await h.submit(c, 'first');
    const turn = await h.agent.nextTurn();
    expect(turn.boundary()).toEqual([]);
    expect(await h.submit(c, 'queued before')).toMatchObject({ status: 'queued' });
    // the model is writing its final answer: no boundary comes any more
    await c.call('session.steer', { session_id: 's-1', text: 'mind the tests' });
    turn.end();
    const next = await h.agent.nextTurn();
    expect(next.text).toBe('mind the tests');
    next.end();
    const last = await h.agent.nextTurn();
    expect(last.text).toBe('queued before');
    last.end();
    await h.live.idle();
    expect(h.agent.started).toEqual(['first', 'mind the tests', 'queued before']);
    const steered = c.eventsOf('prompt.steered').map((e) => e.payload.state);
    expect(steered).toEqual(['pending', 'prompt']);
  });

  it('with no turn running, guidance is a prompt at once', async () => {
    const h = sessionHarness();
    const c = await h.client();
    await h.attach(c);
    const r = await c.call('session.steer', { session_id: 's-1', text: 'hello' });
    expect(r).toMatchObject({ status: 'prompt' });
    const turn = await h.agent.nextTurn();
    expect(turn.text).toBe('hello');
    turn.end();
    await h.live.idle();
    await until(() => c.eventsOf('turn.end').length === 1, 'the turn ends');
    expect(c.eventsOf('prompt.steered')).toEqual([]); // shown as the prompt it is
  });

  it('an interrupted turn still hands its waiting guidance on as the next prompt', async () => {
    const h = sessionHarness();
    const c = await h.client();
    await h.attach(c);
    await h.submit(c, 'long job');
    await h.agent.nextTurn();
    await c.call('session.steer', { session_id: 's-1', text: 'stop after step 2' });
    h.live.interrupt();
    const next = await h.agent.nextTurn();
    expect(next.text).toBe('stop after step 2');
    next.end();
    await h.live.idle();
  });

  it('during a shutdown, guidance that missed its turn is kept held and stored, not run', async () => {
    const h = sessionHarness();
    const c = await h.client();
    await h.attach(c);
    await h.submit(c, 'long job');
    await h.agent.nextTurn();
    await c.call('session.steer', { session_id: 's-1', text: 'keep it short' });
    h.live.holdQueue(); // the daemon drains
    h.live.interrupt();
    await h.live.idle();
    expect(h.agent.started).toEqual(['long job']);
    expect(h.live.queued()).toMatchObject([{ text: 'keep it short', held: true }]);
    expect(h.store.rows.map((r) => r.text)).toEqual(['keep it short']);
  });
});
