import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { ClientListeners } from './listeners.js';

const ev = (seq: number): WireEvent =>
  ({ type: 'status.update', session_id: 's', seq, ts: 0, payload: { state: 'idle' } }) as WireEvent;

describe('ClientListeners', () => {
  it('a throwing listener does not stop the others; removal works', () => {
    const l = new ClientListeners();
    const seen: string[] = [];
    l.on('state', () => {
      throw new Error('boom');
    });
    const off = l.on('state', (s) => seen.push(s));
    l.emit('state', 'connected', {});
    off();
    l.emit('state', 'disconnected', {});
    expect(seen).toEqual(['connected']);
  });

  it('iterators get the delivered events until they are ended; an iterator made after the end is done', async () => {
    const l = new ClientListeners();
    const it1 = l.iterator(false);
    l.deliver(ev(1));
    l.deliver(ev(2));
    l.endIterators();
    const seqs: number[] = [];
    for await (const e of it1) seqs.push(e.seq);
    expect(seqs).toEqual([1, 2]);
    expect((await l.iterator(true).next()).done).toBe(true);
  });

  it('hands frames to the frame listeners', () => {
    const l = new ClientListeners();
    const frames: unknown[] = [];
    const off = l.onFrame((f) => frames.push(f));
    l.frame({ id: 1 });
    off();
    l.frame({ id: 2 });
    expect(frames).toEqual([{ id: 1 }]);
  });
});
