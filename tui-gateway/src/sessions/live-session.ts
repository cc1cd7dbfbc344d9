/**
 * A live session in the daemon: its agent, its fan-out set of attached
 * connections, its replay ring, its queue of prompts, its open server requests, and the in-flight
 * state of the running turn. Events get a per-session `seq`, strictly increasing, never reused
 * while the daemon lives.
 *
 * Its contracts (agent, persistence, options) are in live-session-types.ts; what clients see of
 * it (`SessionInfo`, the attach catch-up) is built by session-view.ts; its running turn, prompt
 * queue and steering are session-turns.ts.
 */
import type { CompressionOutcome } from '@hermes/core/agent';
import type { BookAnswerOutcome, RequestKind } from '@hermes/core/approvals';
import {
  wireEvent,
  type AgentEvent,
  type EventPayload,
  type EventType,
  type Inflight,
  type MethodResult,
  type OpenRequest,
  type QueuedPrompt,
  type SessionInfo,
  type WireEvent,
} from '@hermes/core/protocol';
import type { SessionRecord } from '@hermes/core/state';
import { clientFiles } from './client-files.js';
import type { Connection } from '../rpc/types.js';
import { eventFrame } from '../transport/outbound-queue.js';
import { applyInflight } from './inflight.js';
import { catchUp, sessionInfo, snapshotUsage, type SnapshotUsage } from './session-view.js';
import { OpenRequests } from './open-requests.js';
import type { AgentHooks, LiveSessionOptions, SessionAgent } from './live-session-types.js';
import { ReplayRing } from './replay-ring.js';
import { SessionTurns } from './session-turns.js';

export type {
  AgentHooks,
  CostStatusName,
  LiveSessionOptions,
  SessionAgent,
  SessionPersistence,
} from './live-session-types.js';

export { toStoredMessage } from './stored-message.js';
export { SessionBusyError } from './session-turns.js';

/** Default number of stored messages in an attach snapshot. */
export const DEFAULT_HISTORY_WINDOW = 200;

/** One live session. */
export class LiveSession {
  /**
   * The session id. Changes when the agent's context compression continues the conversation in
   * a child session (`session.compressed`): later events, server requests and `session.info`
   * carry the new id; the registry keeps routing the old one here.
   */
  id: string;
  readonly profile: string;
  readonly clients = new Set<Connection>();
  seq = 0;
  lastActivity: number;
  /** Epoch ms of the running turn's start or its latest agent event (drain's stall check). */
  lastProgress = 0;
  /** The last `session.usage` of this session in this daemon, for snapshots. */
  private lastUsage: SnapshotUsage | undefined;
  private readonly ring: ReplayRing;
  private agentInstance: SessionAgent | undefined;
  private readonly hooks: AgentHooks;
  private readonly requests: OpenRequests;
  private inflight: Inflight | null = null;
  /** The running turn and the prompt queue (session-turns.ts). */
  private readonly turns: SessionTurns;
  private readonly now: () => number;

  constructor(private readonly opts: LiveSessionOptions) {
    this.id = opts.id;
    this.profile = opts.profile;
    this.now = opts.now ?? Date.now;
    this.lastActivity = this.now();
    this.ring = new ReplayRing(opts.budget);
    this.turns = new SessionTurns({
      id: () => this.id,
      agent: () => this.agent,
      store: opts.store,
      emit: (type, payload) => this.emit(type, payload),
      info: () => this.info(),
      progress: () => (this.lastProgress = this.now()),
      drained: () => {
        if (this.clients.size === 0) this.opts.onIdle?.(this);
      },
      bookkeeping: (what, write) => this.bookkeeping(what, write),
      log: (line) => this.opts.log?.(line),
    });
    this.requests = new OpenRequests(
      () => this.id,
      () => this.clients,
      (requestId, kind, answer, by) =>
        this.emit('request.resolved', { request_id: requestId, kind, choice: answer, by }),
      this.now,
      // an unusable answer denies (pending.ts); every client learns why
      (message) => this.emit('error', { message, kind: 'request' }),
      (open) => {
        this.opts.onChange?.(this);
        this.opts.onRequest?.(this, open);
      },
    );
    const timeoutMs = (): number => this.opts.approvalTimeoutS * 1000;
    this.hooks = {
      onEvent: (e) => this.onAgentEvent(e),
      onApproval: (req, signal, pending) => this.requests.askApproval(req, signal, pending, timeoutMs()),
      onClarify: (q, signal) => this.requests.askClarify(q, signal, timeoutMs()),
      editorFiles: clientFiles(
        () => this.clients,
        () => this.id,
        (line) => this.opts.log?.(line),
      ),
    };
  }

  /**
   * The session's agent, created on first use (a turn, `/compact`) rather than at attach: building
   * it reads the whole transcript (~100 ms for 10,000 messages), which a client that only attaches
   * to look never needs. A failure to build it surfaces as that turn's `error`.
   */
  private get agent(): SessionAgent {
    this.agentInstance ??= this.opts.createAgent(this.hooks);
    return this.agentInstance;
  }

  private onAgentEvent(e: AgentEvent): void {
    this.lastProgress = this.now();
    if (e.type === 'session.usage') {
      // kept for the snapshot: a client attaching between turns shows the context gauge at once
      this.lastUsage = snapshotUsage(e.payload);
    }
    this.emit(e.type, e.payload); // `session.compressed` itself still carries the old id
    if (e.type !== 'session.compressed' || e.payload.session_id === this.id) return;
    const oldId = this.id;
    this.id = e.payload.session_id;
    // the stored queue follows the session
    this.bookkeeping('move its stored queue', () => this.opts.store.moveQueuedPrompts(oldId, this.id));
    if (this.busy) this.turns.setState('running');
    this.opts.onIdChange?.(this, oldId);
    this.emit('session.info', { session: this.info() });
  }

  /** Compresses the context now (`/compact [focus]`), run like a turn: `SessionTurns.compact`. */
  compact(focus?: string): Promise<CompressionOutcome | undefined> {
    return this.turns.compact(focus);
  }

  /** True while a turn (or `/compact`) runs. */
  get busy(): boolean {
    return this.turns.busy;
  }

  /**
   * Emits event `type` of this session: assigns the next seq, records it in the ring and fans it
   * out to every client. The payload is typed from `EventPayloads` (and checked against its
   * schema under tests, `wireEvent`).
   * @throws Error when checks are on and the payload does not match its schema.
   */
  emit<K extends EventType>(type: K, payload: EventPayload<K>): WireEvent {
    const ts = this.now();
    const ev = wireEvent(type, this.id, this.seq + 1, payload, ts, this.opts.log);
    this.seq = ev.seq;
    this.lastActivity = ts;
    this.inflight = applyInflight(this.inflight, ev, ts);
    // Serialized once here; every connection's queue reuses the cached frame (eventFrame).
    this.ring.push(ev, eventFrame(ev).bytes);
    for (const c of this.clients) if (!c.closed) c.notify(ev);
    this.opts.onChange?.(this, ev);
    return ev;
  }

  /** Runs a write of the session's bookkeeping; a failure is logged (the work goes on in memory). */
  private bookkeeping(what: string, write: () => unknown): void {
    try {
      write();
    } catch (err) {
      this.opts.log?.(`session ${this.id}: cannot ${what}: ${(err as Error).message}`);
    }
  }

  /** Session metadata for clients. */
  info(): SessionInfo {
    let r: SessionRecord | undefined;
    try {
      r = this.opts.store.getSession(this.id);
    } catch (err) {
      // sent with every session.info event: a failing read must not break the caller's path
      this.opts.log?.(`session ${this.id}: cannot read its record: ${(err as Error).message}`);
    }
    return sessionInfo(r, {
      id: this.id,
      profile: this.profile,
      busy: this.busy,
      clients: this.clients.size,
      notices: this.opts.notices,
      approval: this.opts.approvalMode?.(),
    });
  }

  /**
   * Adds a connection to the fan-out and returns what it needs to catch up: a full snapshot, or
   * with `sinceSeq` just the missed events (a snapshot with `truncated` when they are gone).
   * Open approval/clarify requests are (re)sent to the new client.
   */
  attach(
    conn: Connection,
    sinceSeq?: number,
    historyLimit = DEFAULT_HISTORY_WINDOW,
  ): MethodResult<'session.attach'> {
    const isNew = !this.clients.has(conn);
    this.clients.add(conn);
    if (isNew) conn.onClose(() => this.detach(conn));
    const result = catchUp(
      {
        id: this.id,
        seq: this.seq,
        epoch: this.opts.epoch,
        store: this.opts.store,
        ring: this.ring,
        info: () => this.info(),
        inflight: this.inflight,
        queued: () => this.turns.queued(),
        openRequests: () => this.requests.list(),
        lastUsage: this.lastUsage,
      },
      sinceSeq,
      historyLimit,
    );
    // After the result is queued by the caller, hand this client the questions still waiting.
    // (A microtask ran before the dispatcher's `await handler()` resumed: the server requests
    // reached the client ahead of the snapshot that lists them.)
    setImmediate(() => this.requests.sendOpenTo(conn));
    if (isNew) this.emit('session.info', { session: this.info() });
    return result;
  }

  /**
   * The events after `sinceSeq` without joining the fan-out (`session.events.since`).
   * @returns `truncated` when some are no longer in the ring (or `sinceSeq` is from another epoch).
   */
  eventsSince(sinceSeq: number): MethodResult<'session.events.since'> {
    if (sinceSeq > this.seq) return { events: [], truncated: true, seq: this.seq };
    const r = this.ring.since(sinceSeq, this.seq);
    return { events: r.truncated ? [] : r.events, truncated: r.truncated, seq: this.seq };
  }

  /**
   * Answers an open request (`approval.answer` / `clarify.answer`); the caller checked that
   * `conn` is attached.
   */
  answer(
    kind: RequestKind,
    requestId: string,
    raw: unknown,
    by: string,
    reason?: unknown,
  ): BookAnswerOutcome {
    return this.requests.answer(kind, requestId, raw, by, reason);
  }

  /** Removes a connection from the fan-out; the turn keeps running. */
  detach(conn: Connection): void {
    if (!this.clients.delete(conn)) return;
    this.requests.dropConnection(conn);
    this.emit('session.info', { session: this.info() });
    if (this.clients.size === 0 && !this.busy) this.opts.onIdle?.(this);
  }

  /**
   * Submits a prompt: runs now when idle, else queues it (the parameters: `SessionTurns.submit`).
   */
  submit(...args: Parameters<SessionTurns['submit']>): MethodResult<'prompt.submit'> {
    return this.turns.submit(...args);
  }

  /** Guidance for the running turn (`session.steer`): `SessionTurns.steer`. */
  steer(text: string, by?: string): MethodResult<'session.steer'> {
    return this.turns.steer(text, by);
  }

  /**
   * Runs `edit` (a change of the stored transcript: undo, rewind) while no turn may start: prompts
   * submitted meanwhile queue and run after it. `edit` gets the agent when it was built (its
   * history must follow the edit) and may be async (a file restore).
   * @throws Error (`SessionBusyError`) while a turn, `/compact` or the queue runs.
   */
  whileIdle<T>(what: string, edit: (agent: SessionAgent | undefined) => T | Promise<T>): Promise<T> {
    return this.turns.whileIdle(what, () => edit(this.agentInstance));
  }

  /**
   * Interrupts the running turn: stops the stream and tools, answers open requests with their
   * fail-closed default, keeps the partial reply. Queued prompts stay queued and run next.
   * @returns whether a turn was running.
   */
  interrupt(): boolean {
    this.requests.cancelAll('interrupt');
    return this.turns.interrupt();
  }

  /** Resolves when the running turn and the queue are done (used by drain). */
  idle(): Promise<void> {
    return this.turns.idle();
  }

  /** Shutdown: holds the waiting prompts for after the restart (`SessionTurns.holdQueue`). */
  holdQueue(): void {
    this.turns.holdQueue();
  }

  /** `/queue run`: lets held prompts run (after the running turn, if any). @returns how many. */
  runHeld(): number {
    return this.turns.runHeld();
  }

  /** `/queue drop`: discards every waiting prompt (held or not). @returns the prompts dropped. */
  dropQueued(): QueuedPrompt[] {
    return this.turns.dropQueued();
  }

  /**
   * Takes the waiting prompts (held or not) that `pick` selects out of the queue, for their owner
   * to submit again in its own order (a platform recovering after a restart). @returns them.
   */
  takeQueued(pick: (p: QueuedPrompt) => boolean): QueuedPrompt[] {
    return this.turns.takeQueued(pick);
  }

  /** The waiting prompts, in queue order (held ones included). */
  queued(): QueuedPrompt[] {
    return this.turns.queued();
  }

  /** The approval and clarify requests still waiting for an answer, oldest first. */
  openRequests(): OpenRequest[] {
    return this.requests.list();
  }

  /** Stored prompt + completion tokens of the session (0 when its record cannot be read). */
  storedTokens(): number {
    const r = this.opts.store.getSession(this.id);
    return r ? r.prompt_tokens + r.completion_tokens : 0;
  }

  /** Frees the ring's memory (unload). */
  dispose(): void {
    this.requests.cancelAll('unload');
    this.ring.clear();
  }
}
