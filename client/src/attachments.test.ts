import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { Attachments } from './attachments.js';

const ev = (type: string, seq: number, sessionId: string, payload: Record<string, unknown> = {}): WireEvent =>
  ({
    type,
    session_id: sessionId,
    seq,
    payload,
  }) as WireEvent;

describe('Attachments', () => {
  it('drops duplicates and, after a compression, tracks the child id with the same seq line', () => {
    const got: WireEvent[] = [];
    const a = new Attachments(
      (e) => got.push(e),
      () => {},
    );
    const t = a.track('s1');
    a.deliverAttach(
      's1',
      t,
      { kind: 'replay', events: [], open_requests: [], seq: 3, epoch: 'e' } as never,
      'attach',
    );
    a.deliverEvent(ev('message.delta', 3, 's1'));
    a.deliverEvent(ev('session.compressed', 4, 's1', { session_id: 's2' }));
    a.deliverEvent(ev('turn.start', 5, 's2'));
    a.deliverEvent(ev('turn.start', 5, 's2'));
    expect(got.map((e) => `${e.session_id}:${e.seq}`)).toEqual(['s1:4', 's2:5']);
    expect(a.get('s2')).toBe(t);
    expect(a.get('s1')).toBeUndefined();
  });
});
