/**
 * The bounded outbound queue of one connection (slow clients never block the
 * agent; each connection has a bounded outbound queue; deltas may be coalesced; a client whose
 * queue overflows is disconnected and recovers by replay).
 *
 * Frames go straight to the socket while its `bufferedAmount` is under `highWaterBytes`; beyond
 * that they wait here. Pushing never blocks and never throws. Rules:
 * - Consecutive `message.delta` / `reasoning.delta` events of the same session that are still
 *   waiting here (not yet handed to the socket) are merged into one: texts concatenated, and the
 *   merged event carries the **later** event's `seq` and `ts` (the seqs in between are skipped for
 *   this client; its text is complete). Only the tail item is merged into, so order is preserved.
 * - When more than `maxFrames` items wait, or waiting bytes plus the socket's `bufferedAmount`
 *   exceed `maxBytes`, the queue reports overflow once (the connection then closes with 4008).
 * - Fan-out cost: an event is serialized once (`eventFrame`, shared by every connection), and a
 *   sink that can cork is corked for the rest of the event-loop turn (uncorked in one
 *   `setImmediate` for all queues, or at once past `CORK_FLUSH_BYTES`): a burst of deltas then
 *   costs one `writev` per connection instead of one per frame. Measured in
 *   bench/gateway.bench.ts (16 clients: about 3× less CPU per delta).
 */
import { EVENT_NOTIFICATION, type WireEvent, type WireEventOf } from '@hermes/core/protocol';

/** Where frames go: the WebSocket, seen through the two members the queue needs. */
export interface FrameSink {
  /** Bytes accepted by the socket but not yet written to the kernel (ws `bufferedAmount`). */
  readonly bufferedAmount: number;
  /** Sends one text frame; `cb` runs once it is written out (or failed). */
  send(data: string, cb: (err?: Error) => void): void;
  /**
   * Optional: hold writes in user space until `uncork` (Node's `socket.cork()`), so the frames of
   * one event-loop turn leave in one `writev` instead of one syscall each.
   */
  cork?(): void;
  uncork?(): void;
}

/**
 * A corked socket is written out early once it holds this many bytes, so corking never holds
 * much in user space (and never pushes `bufferedAmount` toward the overflow bound).
 */
export const CORK_FLUSH_BYTES = 64 * 1024;

/** Queues whose socket is corked until the end of this event-loop turn. */
const corked = new Set<OutboundQueue>();
let flushScheduled = false;
function flushCorked(): void {
  flushScheduled = false;
  const all = [...corked];
  corked.clear();
  for (const q of all) q.uncorkNow();
}

/** Bounds of one connection's queue. */
export interface OutboundLimits {
  /** Most frames waiting in the queue (default 1,000). */
  maxFrames: number;
  /** Most bytes waiting in the queue plus the socket's buffer (default 8 MiB). */
  maxBytes: number;
  /** Frames wait in the queue once the socket buffers this many bytes (default 512 KiB). */
  highWaterBytes: number;
}

/** Defaults of `OutboundLimits`. */
export const DEFAULT_OUTBOUND_LIMITS: OutboundLimits = {
  maxFrames: 1000,
  maxBytes: 8 * 1024 * 1024,
  highWaterBytes: 512 * 1024,
};

/** Events whose queued neighbours of the same type and session may be merged (their texts joined). */
type MergeableEvent = WireEventOf<'message.delta'> | WireEventOf<'reasoning.delta'>;

function isMergeable(e: WireEvent): e is MergeableEvent {
  return e.type === 'message.delta' || e.type === 'reasoning.delta';
}

interface Item {
  /** The serialized frame; undefined for a merged event (serialized when sent). */
  frame?: string;
  /** Set for events (the merge candidates). */
  event?: WireEvent;
  bytes: number;
}

/** Serialized `event` notifications, shared by every connection that sends the same object. */
const frameCache = new WeakMap<WireEvent, { frame: string; bytes: number }>();

/** Serializes an `event` notification once per event object (fan-out sends one object N times). */
export function eventFrame(event: WireEvent): { frame: string; bytes: number } {
  let hit = frameCache.get(event);
  if (!hit) {
    const frame = JSON.stringify({ jsonrpc: '2.0', method: EVENT_NOTIFICATION, params: event });
    hit = { frame, bytes: Buffer.byteLength(frame) };
    frameCache.set(event, hit);
  }
  return hit;
}

/** Counters of one queue, for logs and tests. */
export interface OutboundStats {
  /** Frames handed to the socket. */
  sent: number;
  /** Events merged into a queued neighbour. */
  merged: number;
  /** Most items that waited at once. */
  peakFrames: number;
}

/** One connection's outbound queue. */
export class OutboundQueue {
  private readonly items: Item[] = [];
  private head = 0;
  private queuedBytes = 0;
  private overflowed = false;
  private stopped = false;
  readonly stats: OutboundStats = { sent: 0, merged: 0, peakFrames: 0 };
  /** One completion callback for every write (no closure per frame on the fan-out hot path). */
  private readonly onWritten = (err?: Error): void => {
    if (!err) this.pump();
  };

  /**
   * @param sink the socket.
   * @param limits bounds (see `OutboundLimits`).
   * @param onOverflow called once, synchronously, when a push breaks a bound; the queue then
   *   drops everything and accepts nothing more.
   */
  constructor(
    private readonly sink: FrameSink,
    private readonly limits: OutboundLimits,
    private readonly onOverflow: (reason: string) => void,
  ) {}

  /** Frames waiting (not yet handed to the socket). */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Bytes waiting (not counting the socket's own buffer). */
  get bytes(): number {
    return this.queuedBytes;
  }

  /** Queues a serialized frame (a response or a server request). @returns false once stopped. */
  pushFrame(frame: string): boolean {
    return this.push({ frame, bytes: Buffer.byteLength(frame) });
  }

  /** Queues an `event` notification, merging deltas as described above. @returns false once stopped. */
  pushEvent(event: WireEvent): boolean {
    if (this.stopped) return false;
    const tail = this.length > 0 ? this.items[this.items.length - 1] : undefined;
    const last = tail?.event;
    if (tail && last && isMergeable(last) && isMergeable(event) && canMerge(last, event)) {
      const addition = event.payload.text;
      tail.event = { ...event, payload: { ...event.payload, text: last.payload.text + addition } };
      tail.frame = undefined;
      const added = Buffer.byteLength(addition);
      tail.bytes += added;
      this.queuedBytes += added;
      this.stats.merged++;
      this.checkBounds();
      return !this.stopped;
    }
    const cached = eventFrame(event);
    // Fast path (the common case): nothing waits and the socket keeps up, so the shared frame
    // goes straight out without an Item.
    if (this.length === 0 && this.sink.bufferedAmount < this.limits.highWaterBytes) {
      this.send(cached.frame);
      return true;
    }
    return this.push({ frame: cached.frame, event, bytes: cached.bytes });
  }

  private isCorked = false;

  /** Corks the socket until the end of this event-loop turn: a burst leaves as one write. */
  private corkForTurn(): void {
    if (this.isCorked || !this.sink.cork) return;
    this.isCorked = true;
    this.sink.cork();
    corked.add(this);
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flushCorked);
    }
  }

  /** Writes what the cork held back (called at the end of the turn). */
  uncorkNow(): void {
    if (!this.isCorked) return;
    this.isCorked = false;
    this.sink.uncork?.();
  }

  /** Drops everything and accepts nothing more (connection closed). */
  stop(): void {
    this.stopped = true;
    this.items.length = 0;
    this.head = 0;
    this.queuedBytes = 0;
  }

  private push(item: Item): boolean {
    if (this.stopped) return false;
    if (this.length === 0 && this.sink.bufferedAmount < this.limits.highWaterBytes) {
      this.write(item);
      return true;
    }
    this.items.push(item);
    this.queuedBytes += item.bytes;
    if (this.length > this.stats.peakFrames) this.stats.peakFrames = this.length;
    this.checkBounds();
    return !this.stopped;
  }

  private checkBounds(): void {
    if (this.overflowed) return;
    const waiting = this.length;
    const bytes = this.queuedBytes + this.sink.bufferedAmount;
    let reason: string | undefined;
    if (waiting > this.limits.maxFrames) reason = `${waiting} frames queued (limit ${this.limits.maxFrames})`;
    else if (bytes > this.limits.maxBytes) reason = `${bytes} bytes queued (limit ${this.limits.maxBytes})`;
    if (!reason) return;
    this.overflowed = true;
    this.stop();
    this.onOverflow(reason);
  }

  private write(item: Item): void {
    this.send(item.frame ?? eventFrame(item.event!).frame);
  }

  /** Hands one frame to the socket, corked until the end of this turn (see `CORK_FLUSH_BYTES`). */
  private send(frame: string): void {
    this.stats.sent++;
    this.corkForTurn();
    this.sink.send(frame, this.onWritten);
    if (this.isCorked && this.sink.bufferedAmount >= CORK_FLUSH_BYTES) {
      corked.delete(this);
      this.uncorkNow();
    }
  }

  /** Hands waiting frames to the socket while it is under the high-water mark. */
  private pump(): void {
    while (!this.stopped && this.length > 0 && this.sink.bufferedAmount < this.limits.highWaterBytes) {
      const item = this.items[this.head]!;
      this.items[this.head] = undefined as unknown as Item;
      this.head++;
      this.queuedBytes -= item.bytes;
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items.splice(0, this.head);
        this.head = 0;
      }
      this.write(item);
    }
    if (this.length === 0 && this.head > 0) {
      this.items.length = 0;
      this.head = 0;
    }
  }
}

function canMerge(a: MergeableEvent, b: MergeableEvent): boolean {
  return a.type === b.type && a.session_id === b.session_id;
}
