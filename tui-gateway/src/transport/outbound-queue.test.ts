import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { OutboundQueue, type FrameSink } from './outbound-queue.js';

/** A socket that accepts frames into `buffered` until `drain()` writes them out. */
class FakeSink implements FrameSink {
  sent: string[] = [];
  private inFlight: Array<{ data: string; cb: (err?: Error) => void }> = [];
  get bufferedAmount(): number {
    return this.inFlight.reduce((n, f) => n + f.data.length, 0);
  }
  send(data: string, cb: (err?: Error) => void): void {
    this.inFlight.push({ data, cb });
  }
  /** Writes everything out (callbacks may send more). */
  drain(): void {
    while (this.inFlight.length) {
      const f = this.inFlight.shift()!;
      this.sent.push(f.data);
      f.cb();
    }
  }
  events(): WireEvent[] {
    return this.sent.map((f) => JSON.parse(f).params as WireEvent);
  }
}

const delta = (seq: number, text: string, type = 'message.delta', session_id = 's1'): WireEvent => ({
  type,
  session_id,
  seq,
  payload: { text },
});

describe('OutboundQueue', () => {
  const limits = { maxFrames: 10, maxBytes: 10_000, highWaterBytes: 100 };

  it('sends at once while the socket is under the high-water mark', () => {
    const sink = new FakeSink();
    const q = new OutboundQueue(sink, limits, () => {});
    q.pushEvent(delta(1, 'a'));
    expect(q.length).toBe(0);
    sink.drain();
    expect(sink.events()).toEqual([delta(1, 'a')]);
  });

  it('merges queued deltas of one session, keeping the later seq, and keeps order otherwise', () => {
    const sink = new FakeSink();
    const q = new OutboundQueue(sink, limits, () => {});
    q.pushFrame(JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { pad: 'x'.repeat(200) } }));
    q.pushEvent(delta(1, 'Hel'));
    q.pushEvent(delta(2, 'lo'));
    q.pushEvent(delta(3, 'think', 'reasoning.delta'));
    q.pushEvent(delta(4, '!'));
    q.pushEvent(delta(5, ' other', 'message.delta', 's2'));
    q.pushEvent(delta(6, ' world'));
    expect(q.length).toBe(5);
    expect(q.stats.merged).toBe(1);
    sink.drain();
    const got = sink.events().slice(1);
    expect(got.map((e) => [e.type, e.session_id, e.seq, e.payload.text])).toEqual([
      ['message.delta', 's1', 2, 'Hello'],
      ['reasoning.delta', 's1', 3, 'think'],
      ['message.delta', 's1', 4, '!'],
      ['message.delta', 's2', 5, ' other'],
      ['message.delta', 's1', 6, ' world'],
    ]);
  });

  it('overflows once on too many frames, then drops everything', () => {
    const sink = new FakeSink();
    const reasons: string[] = [];
    const q = new OutboundQueue(sink, limits, (r) => reasons.push(r));
    q.pushFrame('x'.repeat(200));
    for (let i = 0; i < 20; i++)
      q.pushEvent({ type: 'tool.progress', session_id: 's', seq: i, payload: { tool_id: 't', text: 'p' } });
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/11 frames queued \(limit 10\)/);
    expect(q.length).toBe(0);
    expect(q.pushFrame('y')).toBe(false);
  });

  it('overflows on bytes, counting merged delta text', () => {
    const sink = new FakeSink();
    const reasons: string[] = [];
    const q = new OutboundQueue(sink, limits, (r) => reasons.push(r));
    q.pushFrame('x'.repeat(200));
    for (let i = 0; i < 100 && !reasons.length; i++) q.pushEvent(delta(i, 'y'.repeat(500)));
    expect(reasons[0]).toMatch(/bytes queued \(limit 10000\)/);
  });

  it('reuses one serialization of an event across queues', () => {
    const a = new FakeSink();
    const b = new FakeSink();
    const ev = delta(1, 'shared');
    new OutboundQueue(a, limits, () => {}).pushEvent(ev);
    new OutboundQueue(b, limits, () => {}).pushEvent(ev);
    a.drain();
    b.drain();
    expect(a.sent[0]).toBe(b.sent[0]);
  });
});
