/**
 * The turn slot of a live session on its own (session-turns.ts): one turn at a time with the
 * prompts behind it, transcript edits that keep turns from starting, interrupts, and the host
 * told when the queue ran empty.
 */
import { describe, expect, it } from 'vitest';
import type { AgentHooks } from './live-session-types.js';
import { SessionBusyError, SessionTurns } from './session-turns.js';
import { MemoryStore, ScriptedAgent, until } from './testing.js';

const noHooks: AgentHooks = {
  onEvent: () => {},
  onApproval: () => Promise.resolve('deny'),
  onClarify: () => Promise.reject(new Error('no clarify here')),
  editorFiles: { read: () => Promise.resolve(undefined), write: () => Promise.resolve(false) },
};

function turnsHarness() {
  const store = new MemoryStore('s1');
  const agent = new ScriptedAgent();
  const built = agent.create(noHooks);
  const events: Array<{ type: string; payload: unknown }> = [];
  let drained = 0;
  const turns = new SessionTurns({
    id: () => 's1',
    agent: () => built,
    store,
    emit: (type, payload) => void events.push({ type, payload }),
    info: () => ({}) as never,
    progress: () => {},
    drained: () => void drained++,
    bookkeeping: (_what, write) => void write(),
  });
  return { store, agent, events, turns, drained: () => drained };
}

describe('SessionTurns', () => {
  it('queues a prompt behind the running turn, stores it while it waits, then runs it', async () => {
    const h = turnsHarness();
    expect(h.turns.submit('first')).toMatchObject({ status: 'started' });
    const first = await h.agent.nextTurn();
    expect(h.turns.busy).toBe(true);
    expect(h.turns.submit('second')).toMatchObject({ status: 'queued' });
    expect(h.store.rows.map((r) => r.text)).toEqual(['second']);
    first.end();
    const second = await h.agent.nextTurn();
    expect(second.text).toBe('second');
    second.end();
    await h.turns.idle();
    expect(h.agent.started).toEqual(['first', 'second']);
    expect(h.store.states).toEqual(['running', 'idle', 'running', 'idle']);
    expect(h.events.filter((e) => e.type === 'turn.end')).toHaveLength(2);
    expect(h.drained()).toBe(1);
    expect(h.turns.busy).toBe(false);
  });

  it('refuses a transcript edit while a turn runs; prompts submitted during an edit wait for it', async () => {
    const h = turnsHarness();
    h.turns.submit('running');
    const turn = await h.agent.nextTurn();
    await expect(h.turns.whileIdle('undo', () => 1)).rejects.toBeInstanceOf(SessionBusyError);
    turn.end();
    await h.turns.idle();

    let release!: () => void;
    const edit = h.turns.whileIdle('undo', () => new Promise<void>((r) => (release = r)));
    expect(h.turns.submit('after the edit')).toMatchObject({ status: 'queued' });
    expect(h.agent.started).toEqual(['running']);
    release();
    await edit;
    const next = await h.agent.nextTurn();
    expect(next.text).toBe('after the edit');
    next.end();
    await h.turns.idle();
  });

  it('interrupt aborts the running turn, which ends interrupted; idle, it reports nothing ran', async () => {
    const h = turnsHarness();
    expect(h.turns.interrupt()).toBe(false);
    h.turns.submit('long');
    const turn = await h.agent.nextTurn();
    expect(h.turns.interrupt()).toBe(true);
    expect(turn.signal.aborted).toBe(true);
    await h.turns.idle();
    await until(() => h.store.states.at(-1) === 'interrupted', 'the interrupted state');
    expect(h.events.find((e) => e.type === 'turn.end')?.payload).toMatchObject({ status: 'interrupted' });
  });
});
