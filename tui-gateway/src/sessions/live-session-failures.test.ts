/**
 * A live session whose stored state cannot be written (disk full): every turn
 * still ends with `error` + `turn.end`, the session is idle again, nothing rejects unhandled.
 */
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { SessionDBError, type QueuedPromptRecord, type SessionRecord } from '@hermes/core/state';
import type { LiveSession, SessionAgent, SessionPersistence } from './live-session.js';
import { bareLiveSession, stubConnection } from './testing.js';

const FULL = 'database or disk is full';

/** A store whose writes fail while `full` is set, like SessionDB on a full disk. */
function fullDiskStore(): SessionPersistence & { full: boolean; states: string[] } {
  const store = {
    full: false,
    states: [] as string[],
    write(what: string): void {
      if (store.full) throw new SessionDBError(`/h/state.db: ${what}: ${FULL}`, '/h/state.db', 'SQLITE_FULL');
    },
    getSession: (): SessionRecord | undefined => undefined,
    getMessages: () => [],
    setSessionState(_id: string, state: string): void {
      store.write('setSessionState');
      store.states.push(state);
    },
    moveQueuedPrompts: (): void => store.write('moveQueuedPrompts'),
    queuePrompt: (): void => store.write('queuePrompt'),
    unqueuePrompt: (): boolean => {
      store.write('unqueuePrompt');
      return true;
    },
    queuedPrompts: (): QueuedPromptRecord[] => [],
  };
  return store;
}

const session = (store: SessionPersistence, agent: SessionAgent, log: string[] = []): LiveSession =>
  bareLiveSession(store, () => agent, { log: (l) => log.push(l) });

const turnEvents = (events: WireEvent[]): Array<[string, unknown]> =>
  events
    .filter((e) => ['turn.start', 'error', 'turn.end'].includes(e.type))
    .map((e) => [
      e.type,
      e.type === 'turn.end' ? e.payload.status : e.type === 'error' ? e.payload.kind : undefined,
    ]);

describe('LiveSession on a full disk', () => {
  it('a turn whose state cannot be stored ends with error + turn.end, and the next prompt runs', async () => {
    const store = fullDiskStore();
    const ran: string[] = [];
    const live = session(store, {
      runTurn: async (text) => {
        ran.push(text);
        return { status: 'complete', text: 'ok' };
      },
    });
    const events: WireEvent[] = [];
    live.attach(stubConnection('c-1', (e) => events.push(e)));

    store.full = true;
    expect(live.submit('one').status).toBe('started');
    await live.idle();
    expect(turnEvents(events)).toEqual([
      ['turn.start', undefined],
      ['error', 'storage'],
      ['turn.end', 'error'],
    ]);
    const error = events.find((e) => e.type === 'error')!;
    expect(String(error.payload.message)).toMatch(/^the turn could not start: .*database or disk is full/);
    expect(ran).toEqual([]); // not run: it could not even be recorded
    expect(live.busy).toBe(false);

    // space freed: the next prompt starts at once (the session is not stuck busy) and runs
    store.full = false;
    events.length = 0;
    expect(live.submit('two').status).toBe('started');
    await live.idle();
    expect(ran).toEqual(['two']);
    expect(turnEvents(events)).toEqual([
      ['turn.start', undefined],
      ['turn.end', 'complete'],
    ]);
    expect(store.states).toEqual(['running', 'idle']);
  });

  it('an end-of-turn state that cannot be recorded is logged; the turn still ends normally', async () => {
    const store = fullDiskStore();
    const recorded: string[] = [];
    // the disk fills during the turn: `running` is stored, `idle` afterwards is not
    store.setSessionState = (_id, state) => {
      if (state !== 'running')
        throw new SessionDBError(`/h/state.db: setSessionState: ${FULL}`, '/h/state.db', 'SQLITE_FULL');
      recorded.push(state);
    };
    const events: WireEvent[] = [];
    const log: string[] = [];
    const ran: string[] = [];
    const live = session(
      store,
      {
        runTurn: async (text) => {
          ran.push(text);
          return { status: 'complete', text: 'ok' };
        },
      },
      log,
    );
    live.attach(stubConnection('c-1', (e) => events.push(e)));
    expect(live.submit('one').status).toBe('started');
    await live.idle();
    expect(ran).toEqual(['one']);
    expect(recorded).toEqual(['running']);
    expect(turnEvents(events)).toEqual([
      ['turn.start', undefined],
      ['turn.end', 'complete'],
    ]);
    expect(log).toEqual([
      expect.stringMatching(/^session s1: cannot record its state "idle": .*database or disk is full/),
    ]);
  });

  it('a queued prompt behind a failing turn is answered too', async () => {
    const store = fullDiskStore();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const live = session(store, {
      runTurn: async () => {
        await gate;
        throw new SessionDBError(`/h/state.db: updateMessage: ${FULL}`, '/h/state.db', 'SQLITE_FULL');
      },
    });
    const events: WireEvent[] = [];
    live.attach(stubConnection('c-1', (e) => events.push(e)));
    expect(live.submit('one').status).toBe('started');
    store.full = true; // the disk fills during the turn
    expect(live.submit('two').status).toBe('queued');
    release();
    await live.idle();
    expect(turnEvents(events)).toEqual([
      ['turn.start', undefined],
      ['error', 'storage'],
      ['turn.end', 'error'],
      ['turn.start', undefined],
      ['error', 'storage'],
      ['turn.end', 'error'],
    ]);
    expect(live.busy).toBe(false);
    expect(live.queued()).toEqual([]);
  });

  it('an agent that cannot be built fails the turn, not the session', async () => {
    const store = fullDiskStore();
    const live = bareLiveSession(store, () => {
      throw new Error('no model client: model.default is not set');
    });
    const events: WireEvent[] = [];
    live.attach(stubConnection('c-1', (e) => events.push(e)));
    live.submit('one');
    await live.idle();
    expect(turnEvents(events)).toEqual([
      ['turn.start', undefined],
      ['error', undefined],
      ['turn.end', 'error'],
    ]);
    expect(live.busy).toBe(false);
  });

  it('/compact that fails before it starts leaves the session idle', async () => {
    const store = fullDiskStore();
    const live = session(store, {
      runTurn: async () => ({ status: 'complete', text: '' }),
      compact: () => {
        throw new Error('cannot build a model client');
      },
    });
    await expect(live.compact()).rejects.toThrow('cannot build a model client');
    expect(live.busy).toBe(false);
    expect(live.submit('next').status).toBe('started');
    await live.idle();
  });
});
