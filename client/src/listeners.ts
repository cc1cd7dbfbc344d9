/**
 * Who hears a daemon client (client.ts): listeners of the client's events (`state`, `event`,
 * `attach`, `attachError`, `connected`), async iterators of the session events, and listeners of
 * every parsed incoming frame. A listener that throws never breaks the connection or the other
 * listeners; a listener added or removed while an emit runs does not change that emit.
 */
import type { WireEvent } from '@hermes/core/protocol';
import { AsyncQueue } from './async-queue.js';
import type { ClientEventName, ClientEvents } from './types.js';

type Listeners = { [E in ClientEventName]: Set<ClientEvents[E]> };

/** The listeners of one client (see the file comment). */
export class ClientListeners {
  private readonly listeners: Listeners = {
    state: new Set(),
    event: new Set(),
    attach: new Set(),
    attachError: new Set(),
    connected: new Set(),
  };
  private readonly frameListeners = new Set<(frame: Record<string, unknown>) => void>();
  private readonly queues = new Set<AsyncQueue<WireEvent>>();

  /** Adds a listener of client event `event`; returns its removal. */
  on<E extends ClientEventName>(event: E, listener: ClientEvents[E]): () => void {
    const set = this.listeners[event] as Set<ClientEvents[E]>;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Calls the listeners of `event` with `args`; a throwing listener is ignored. */
  emit<E extends ClientEventName>(event: E, ...args: Parameters<ClientEvents[E]>): void {
    for (const l of [...this.listeners[event]]) {
      try {
        (l as (...a: Parameters<ClientEvents[E]>) => void)(...args);
      } catch {
        // a failing listener must not break the connection
      }
    }
  }

  /**
   * A new iterator of the session events from now on.
   * @param ended the client is closed for good: the iterator ends at once.
   */
  iterator(ended: boolean): AsyncIterableIterator<WireEvent> {
    const q = new AsyncQueue<WireEvent>();
    if (ended) q.end();
    else this.queues.add(q);
    return q;
  }

  /** Hands a session event to the `event` listeners and every iterator. */
  deliver(ev: WireEvent): void {
    this.emit('event', ev);
    for (const q of this.queues) q.push(ev);
  }

  /** Ends every iterator (the client closed for good). */
  endIterators(): void {
    for (const q of this.queues) q.end();
    this.queues.clear();
  }

  /** Adds a listener of every parsed incoming frame; returns its removal. */
  onFrame(listener: (frame: Record<string, unknown>) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  /** Hands an incoming frame to the frame listeners. */
  frame(frame: Record<string, unknown>): void {
    for (const l of [...this.frameListeners]) l(frame);
  }
}
