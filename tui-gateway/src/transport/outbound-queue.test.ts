import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CORK_FLUSH_BYTES, OutboundQueue, type FrameSink } from './outbound-queue.js';

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

const delta = (
  seq: number,
  text: string,
  type: 'message.delta' | 'reasoning.delta' = 'message.delta',
  session_id = 's1',
): WireEvent => ({ type, session_id, seq, payload: { text } });

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
    expect(
      got.map((e) => [e.type, e.session_id, e.seq, 'text' in e.payload ? e.payload.text : undefined]),
    ).toEqual([
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

  it('corks a corkable socket for the rest of the turn: a burst leaves in one write', async () => {
    /** Records writes, and which of them went out in the same uncorked batch. */
    class CorkSink extends FakeSink {
      corks = 0;
      batches: string[][] = [];
      private held: string[] | undefined;
      override send(data: string, cb: (err?: Error) => void): void {
        if (this.held) this.held.push(data);
        else this.batches.push([data]);
        super.send(data, cb);
      }
      cork(): void {
        this.corks++;
        this.held = [];
      }
      uncork(): void {
        if (this.held?.length) this.batches.push(this.held);
        this.held = undefined;
        this.drain();
      }
    }
    const a = new CorkSink();
    const b = new CorkSink();
    const qa = new OutboundQueue(a, { ...limits, highWaterBytes: 1 << 20 }, () => {});
    const qb = new OutboundQueue(b, { ...limits, highWaterBytes: 1 << 20 }, () => {});
    for (let i = 1; i <= 5; i++) {
      qa.pushEvent(delta(i, `d${i}`));
      qb.pushEvent(delta(i, `d${i}`));
    }
    qa.pushFrame('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(a.batches).toEqual([]); // held until the end of the turn
    await nextTurn();
    expect(a.corks).toBe(1);
    expect(a.batches).toHaveLength(1);
    expect(a.batches[0]).toHaveLength(6);
    expect(b.batches.map((x) => x.length)).toEqual([5]);
    expect(a.events().map((e) => e?.seq)).toEqual([1, 2, 3, 4, 5, undefined]);

    // a big write is not held: it goes out at once, and the next frame starts a new cork
    qa.pushFrame('z'.repeat(CORK_FLUSH_BYTES));
    expect(a.batches).toHaveLength(2);
    qa.pushEvent(delta(6, 'after'));
    expect(a.batches).toHaveLength(2);
    await nextTurn();
    expect(a.batches.map((x) => x.length)).toEqual([6, 1, 1]);
  });
});
