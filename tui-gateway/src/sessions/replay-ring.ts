/**
 * The per-session replay ring: the last events of a session, so a
 * client that reconnects with `since_seq` gets exactly what it missed. Bounded by event count and
 * bytes per session, and by a process-wide byte budget shared by every ring.
 */
import type { WireEvent } from '@hermes/core/protocol';

/** Default bounds of one ring: 512 events / 4 MiB per session. */
export const RING_MAX_EVENTS = 512;
export const RING_MAX_BYTES = 4 * 1024 * 1024;
/** Process-wide cap over all rings, bytes. */
export const RING_GLOBAL_MAX_BYTES = 256 * 1024 * 1024;

/** Shared byte accounting across rings; when over budget, the ring that is pushing evicts its own oldest. */
export class RingBudget {
  used = 0;
  constructor(readonly maxBytes = RING_GLOBAL_MAX_BYTES) {}
}

interface Entry {
  event: WireEvent;
  bytes: number;
}

/** A bounded FIFO of one session's events, oldest first. */
export class ReplayRing {
  private entries: Entry[] = [];
  private head = 0; // index of the oldest live entry
  private bytes = 0;

  constructor(
    private readonly budget: RingBudget = new RingBudget(),
    private readonly maxEvents = RING_MAX_EVENTS,
    private readonly maxBytes = RING_MAX_BYTES,
  ) {}

  /** Number of events held. */
  get size(): number {
    return this.entries.length - this.head;
  }

  /** Seq of the oldest event held, or undefined when empty. */
  get oldestSeq(): number | undefined {
    return this.entries[this.head]?.event.seq;
  }

  /**
   * Appends an event (seq must be larger than the previous one).
   * @param bytes its serialized size; computed when omitted.
   */
  push(event: WireEvent, bytes = Buffer.byteLength(JSON.stringify(event))): void {
    this.entries.push({ event, bytes });
    this.bytes += bytes;
    this.budget.used += bytes;
    while (
      this.size > 1 &&
      (this.size > this.maxEvents || this.bytes > this.maxBytes || this.budget.used > this.budget.maxBytes)
    ) {
      this.evictOne();
    }
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  private evictOne(): void {
    const e = this.entries[this.head++]!;
    this.bytes -= e.bytes;
    this.budget.used -= e.bytes;
  }

  /**
   * The events after `sinceSeq`, in order.
   * @param currentSeq the session's latest seq.
   * @returns `truncated: true` when some of the missed events are no longer held.
   */
  since(sinceSeq: number, currentSeq: number): { events: WireEvent[]; truncated: boolean } {
    if (sinceSeq >= currentSeq) return { events: [], truncated: false };
    const oldest = this.oldestSeq;
    if (oldest === undefined || oldest > sinceSeq + 1) return { events: [], truncated: true };
    const out: WireEvent[] = [];
    for (let i = this.head; i < this.entries.length; i++) {
      const ev = this.entries[i]!.event;
      if (ev.seq > sinceSeq) out.push(ev);
    }
    return { events: out, truncated: false };
  }

  /** Drops every event, returning its bytes to the shared budget. */
  clear(): void {
    while (this.size > 0) this.evictOne();
    this.entries = [];
    this.head = 0;
  }
}
