/**
 * `LiveSession.emit` under tests: a payload that breaks its schema is refused before it takes a
 * seq or reaches a client, with an error naming the event and the field, and the daemon's log says
 * so (what a test that spawned the daemon sees).
 */
import { describe, expect, it, vi } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { bareLiveSession, emptyStore, stubConnection } from './testing.js';

describe('LiveSession.emit', () => {
  it('refuses a payload that does not match its schema, naming the event type and the field', () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const log: string[] = [];
    const live = bareLiveSession(
      emptyStore(),
      () => ({ runTurn: async () => ({ status: 'complete', text: '' }) }),
      {
        log: (l) => log.push(l),
      },
    );
    const events: WireEvent[] = [];
    live.attach(stubConnection('c-1', (e) => events.push(e)));
    const seq = live.seq;

    // the cast stands for untyped code the compiler cannot check
    const wrong = { prompt_id: 'p1', status: 3 } as unknown as { prompt_id: string; status: string };
    expect(() => live.emit('turn.end', wrong)).toThrow(/^event turn\.end: invalid payload: status: /);
    expect(live.seq).toBe(seq); // no seq taken, nothing sent
    expect(events.map((e) => e.type)).toEqual(['session.info']);
    expect(log).toEqual([expect.stringContaining('EVENT SCHEMA VIOLATION: event turn.end')]);

    live.emit('turn.end', { prompt_id: 'p1', status: 'complete' });
    expect(events.map((e) => [e.type, e.seq])).toEqual([
      ['session.info', seq],
      ['turn.end', seq + 1],
    ]);
    vi.restoreAllMocks();
  });
});
