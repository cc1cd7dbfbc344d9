import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { sessionInfo, snapshotResult, wire } from '../testing/fixtures.js';
import { createSessionReducer, initialSessionState, type SessionAction } from './session-reducer.js';
import { unknownEventLog } from './unknown-events.js';

/** An event of a type this TUI does not know, as a newer daemon may send it. */
const future = (type: string, seq: number, sessionId = 's1'): SessionAction => ({
  type: 'event',
  event: { type, session_id: sessionId, seq, payload: { anything: true } } as unknown as WireEvent,
  now: 0,
});

describe('events of unknown types', () => {
  it('are ignored and logged once per type through the injected sink', () => {
    const lines: string[] = [];
    const reduce = createSessionReducer({ onUnknownEvent: unknownEventLog((l) => lines.push(l)) });
    let s = reduce(initialSessionState(), { type: 'attach', result: snapshotResult({ seq: 0 }), now: 0 });
    const before = s.items;
    for (const a of [future('plan.update', 1), future('plan.update', 2), future('vote.cast', 3, '*')]) {
      s = reduce(s, a);
    }
    s = reduce(s, future('plan.update', 4));
    expect(lines).toEqual([
      'ignoring events of type "plan.update": this TUI does not know them (the daemon is newer)',
      'ignoring events of type "vote.cast": this TUI does not know them (the daemon is newer)',
    ]);
    expect(s.items).toBe(before); // nothing shown
    // their seqs count as seen: the next known event applies, a replayed unknown one is dropped
    expect(s.lastSeq).toBe(4);
    s = reduce(s, { type: 'event', event: wire('error', 5, { message: 'after them' }), now: 0 });
    expect(s.items.map((i) => (i.kind === 'notice' ? i.text : i.kind))).toContain('Error: after them');
    expect(s.session).toEqual(sessionInfo());
  });

  it('are ignored without a sink', () => {
    const reduce = createSessionReducer();
    const s0 = reduce(initialSessionState(), { type: 'attach', result: snapshotResult({ seq: 0 }), now: 0 });
    expect(reduce(s0, future('plan.update', 1)).items).toBe(s0.items);
  });
});
