/**
 * The sessions a client keeps attached: the last seq delivered for each, and the events held back
 * while an attach is in flight, so a session's events reach listeners in seq order, without
 * duplicates, and never before the attach result they follow.
 */
import type { WireEvent } from '@hermes/core/protocol';
import type { AttachReason, AttachResult } from './types.js';

/** One attached session. */
export interface Tracked {
  /** Last seq delivered (-1 before the first attach result). */
  lastSeq: number;
  /** True while an attach for it is in flight: its events are buffered. */
  attaching: boolean;
  buffer: WireEvent[];
  historyLimit?: number;
}

/** Bookkeeping of attached sessions; delivery goes through the two callbacks. */
export class Attachments {
  private readonly sessions = new Map<string, Tracked>();

  constructor(
    private readonly onEvent: (ev: WireEvent) => void,
    private readonly onAttach: (
      result: AttachResult,
      info: { sessionId: string; reason: AttachReason },
    ) => void,
  ) {}

  /** Starts tracking a session (replacing any previous tracking of it), attach in flight. */
  track(sessionId: string, historyLimit?: number): Tracked {
    const t: Tracked = { lastSeq: -1, attaching: true, buffer: [] };
    if (historyLimit !== undefined) t.historyLimit = historyLimit;
    this.sessions.set(sessionId, t);
    return t;
  }

  /** The tracking record of a session. */
  get(sessionId: string): Tracked | undefined {
    return this.sessions.get(sessionId);
  }

  /** True when `t` is still the record of `sessionId` (not replaced or forgotten). */
  isCurrent(sessionId: string, t: Tracked): boolean {
    return this.sessions.get(sessionId) === t;
  }

  /** Stops tracking a session (only `t`, when given). */
  forget(sessionId: string, t?: Tracked): void {
    if (!t || this.isCurrent(sessionId, t)) this.sessions.delete(sessionId);
  }

  /** Stops tracking everything. */
  clear(): void {
    this.sessions.clear();
  }

  /** Every tracked session. */
  entries(): Array<[string, Tracked]> {
    return [...this.sessions];
  }

  /**
   * Marks a re-attach in flight and returns the `since_seq` to ask for: none after a daemon
   * restart (seqs started over) or before the first result.
   */
  beginReattach(t: Tracked, epochChanged: boolean): number | undefined {
    t.attaching = true;
    t.buffer = [];
    return !epochChanged && t.lastSeq >= 0 ? t.lastSeq : undefined;
  }

  /** Delivers an attach result, then the events buffered meanwhile (those past its seq). */
  deliverAttach(sessionId: string, t: Tracked, result: AttachResult, reason: AttachReason): void {
    if (result.kind === 'replay') {
      for (const ev of result.events) if (ev.seq > t.lastSeq) t.lastSeq = ev.seq;
      t.lastSeq = Math.max(t.lastSeq, result.seq);
    } else {
      t.lastSeq = result.seq;
    }
    this.onAttach(result, { sessionId, reason });
    const buffered = t.buffer;
    t.buffer = [];
    t.attaching = false;
    for (const ev of buffered) this.deliverEvent(ev);
  }

  /** Delivers a live event: buffered during an attach, dropped when already seen. */
  deliverEvent(ev: WireEvent): void {
    const t = this.sessions.get(ev.session_id);
    if (t) {
      if (t.attaching) {
        t.buffer.push(ev);
        return;
      }
      if (ev.seq <= t.lastSeq) return;
      t.lastSeq = ev.seq;
      // after context compression the same live session continues under its child's id
      const next = ev.type === 'session.compressed' ? ev.payload.session_id : undefined;
      if (typeof next === 'string' && next !== ev.session_id) {
        this.sessions.delete(ev.session_id);
        this.sessions.set(next, t);
      }
    }
    this.onEvent(ev);
  }
}

/** True when notification params look like a wire event. */
export function isWireEvent(p: unknown): p is WireEvent {
  if (typeof p !== 'object' || p === null) return false;
  const e = p as Record<string, unknown>;
  return typeof e.type === 'string' && typeof e.session_id === 'string' && typeof e.seq === 'number';
}
