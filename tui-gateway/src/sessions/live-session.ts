/**
 * A live session in the daemon: its agent, its fan-out set of attached
 * connections, its replay ring, its queue of prompts, its open server requests, and the in-flight
 * state of the running turn. Events get a per-session `seq`, strictly increasing, never reused
 * while the daemon lives.
 *
 * Its contracts (agent, persistence, options) are in live-session-types.ts; what clients see of
 * it (`SessionInfo`, the attach catch-up) is built by session-view.ts.
 */
import type { CompressionOutcome } from '@hermes/core/agent';
import type { BookAnswerOutcome, RequestKind } from '@hermes/core/approvals';
import type { StoredImage } from '@hermes/core/images';
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
import { TurnStartError, turnErrorPayload } from './turn-errors.js';
import { OpenRequests } from './open-requests.js';
import type { AgentHooks, LiveSessionOptions, SessionAgent } from './live-session-types.js';
import { newPrompt, PromptQueue, shutdownNotice } from './prompt-queue.js';
import { ReplayRing } from './replay-ring.js';
import { Steering } from './steering.js';

export type {
  AgentHooks,
  CostStatusName,
  LiveSessionOptions,
  SessionAgent,
  SessionPersistence,
} from './live-session-types.js';

export { toStoredMessage } from './stored-message.js';

/** A transcript edit refused because the session is running a turn (`LiveSession.whileIdle`). */
export class SessionBusyError extends Error {}

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
  private readonly queue: PromptQueue;
  private current: { promptId: string; controller: AbortController } | undefined;
  private runner: Promise<void> | undefined;
  private readonly now: () => number;
  /** Guidance for the running turn (`/steer`), steering.ts. */
  private readonly steering: Steering;
  /** While above 0 no prompt starts (a transcript edit runs, `whileIdle`); prompts queue. */
  private paused = 0;
  /** Set by `holdQueue` (shutdown): a prompt added later (missed guidance) is held too. */
  private holding = false;

  constructor(private readonly opts: LiveSessionOptions) {
    this.id = opts.id;
    this.profile = opts.profile;
    this.now = opts.now ?? Date.now;
    this.lastActivity = this.now();
    this.ring = new ReplayRing(opts.budget);
    this.queue = new PromptQueue(
      opts.store,
      () => this.id,
      (m) => opts.log?.(m),
    );
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
    this.steering = new Steering({
      emit: (type, payload) => this.emit(type, payload),
      submitPrompt: (text, by, first) => this.submit(text, by, undefined, [], first).prompt_id,
      persist: {
        add: (id, text, by) =>
          this.bookkeeping('store its guidance', () =>
            opts.store.queuePrompt(this.id, { promptId: id, text, ...(by ? { by } : {}) }),
          ),
        remove: (id) => this.bookkeeping('forget its delivered guidance', () => opts.store.unqueuePrompt(id)),
      },
    });
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
    if (this.busy) this.setState('running');
    this.opts.onIdChange?.(this, oldId);
    this.emit('session.info', { session: this.info() });
  }

  /**
   * Compresses the context now (`/compact [focus]`). Runs like a turn: prompts submitted
   * meanwhile queue behind it, and an interrupt cancels it.
   * @throws Error while a turn runs or when the agent cannot compact; ModelError from the summary.
   */
  async compact(focus?: string): Promise<CompressionOutcome | undefined> {
    if (!this.agent.compact) throw new Error('this session cannot compact its context');
    if (this.runner) throw new Error('a turn is running; use /compact when it has finished');
    const controller = new AbortController();
    this.current = { promptId: 'compact', controller };
    this.lastProgress = this.now();
    let run: Promise<CompressionOutcome | undefined>;
    try {
      run = this.agent.compact(focus, controller.signal);
    } catch (err) {
      this.current = undefined; // e.g. the new config cannot build a model client: not busy
      throw err;
    }
    this.runner = run
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.current = undefined;
        this.runner = undefined;
        this.emit('session.info', { session: this.info() }); // clients learn it is idle again
        if (this.queue.hasRunnable) this.startRunner(true);
      });
    return run;
  }

  /** True while a turn runs. */
  get busy(): boolean {
    return this.current !== undefined;
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
        queued: () => this.queue.list(),
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
  answer(kind: RequestKind, requestId: string, raw: unknown, by: string): BookAnswerOutcome {
    return this.requests.answer(kind, requestId, raw, by);
  }

  /** Removes a connection from the fan-out; the turn keeps running. */
  detach(conn: Connection): void {
    if (!this.clients.delete(conn)) return;
    this.requests.dropConnection(conn);
    this.emit('session.info', { session: this.info() });
    if (this.clients.size === 0 && !this.busy) this.opts.onIdle?.(this);
  }

  /**
   * Submits a prompt: runs now when idle, else queues it (two clients typing share one queue); a
   * prompt that waits is stored until its turn starts (prompt-queue.ts). Held prompts do not
   * make a new one wait.
   * @param by who submitted it (connection id or client name).
   * @param origin id of the inbound message it answers, echoed in the queue, `turn.start`, `turn.end`.
   * @param images its checked images (prompt-images.ts), listed as chips and sent to the model.
   */
  submit(
    text: string,
    by?: string,
    origin?: string,
    images: StoredImage[] = [],
    first = false,
  ): MethodResult<'prompt.submit'> {
    const prompt = newPrompt(text, by, origin, images);
    if (this.holding) prompt.held = true; // shutting down: kept for after the restart
    const wasBusy = this.busy || this.paused > 0 || this.queue.hasRunnable || this.holding;
    this.queue.add(prompt, wasBusy, images, first);
    if (wasBusy) this.emit('prompt.queued', { queued: this.queue.list() });
    this.startRunner();
    return { prompt_id: prompt.prompt_id, status: wasBusy ? 'queued' : 'started' };
  }

  /**
   * Runs the runnable prompts one after the other. Never rejects: a failure outside a turn
   * (bookkeeping) is logged, and every turn ends with `turn.end` (runPrompt).
   * @param announced the first prompt was listed in `prompt.queued` (it waited): re-list on start.
   */
  private async drainQueue(announced = false): Promise<void> {
    try {
      let first = !announced;
      for (let next = this.queue.takeNext(); next; next = this.queue.takeNext()) {
        // a prompt that waited was announced in `prompt.queued`: tell clients it left the queue
        if (!first) this.emit('prompt.queued', { queued: this.queue.list() });
        first = false;
        await this.runPrompt(next.prompt, next.stored, next.images);
      }
      if (this.clients.size === 0) this.opts.onIdle?.(this);
    } catch (err) {
      this.opts.log?.(`session ${this.id}: running its queue failed: ${(err as Error).message}`);
    }
  }

  /** Starts `drainQueue` unless it runs; `runner` is cleared when it is done. */
  private startRunner(announced = false): void {
    if (this.runner || this.paused > 0) return;
    this.runner = this.drainQueue(announced).finally(() => (this.runner = undefined));
  }

  /**
   * Runs one prompt as a turn: `turn.start`, the agent's events, `turn.end`. Every failure — the
   * session state cannot be stored (disk full, damaged database), the agent cannot be built
   * (broken config), the turn throws — ends the turn the same way: an `error` event naming the
   * cause (`kind` `storage` / `config` when known), `turn.end` with status `error`, the session
   * idle again for the next prompt.
   */
  private async runPrompt(prompt: QueuedPrompt, stored: boolean, images?: StoredImage[]): Promise<void> {
    const controller = new AbortController();
    this.current = { promptId: prompt.prompt_id, controller };
    this.lastProgress = this.now();
    let status = 'error';
    try {
      this.emit('turn.start', {
        prompt_id: prompt.prompt_id,
        text: prompt.text,
        ...(prompt.by ? { by: prompt.by } : {}),
        ...(prompt.origin ? { origin: prompt.origin } : {}),
        ...(prompt.attachments ? { attachments: prompt.attachments } : {}),
      });
      try {
        this.opts.store.setSessionState(this.id, 'running'); // crash recovery relies on it
      } catch (err) {
        throw new TurnStartError(err);
      }
      const r = await this.agent.runTurn(prompt.text, controller.signal, {
        ...(stored ? { queuedPromptId: prompt.prompt_id } : {}),
        takeGuidance: () => this.steering.take(),
        ...(images?.length ? { images } : {}),
      });
      status = r.status;
      // a turn refused before its user message was stored (a model without vision) leaves the row
      if (stored && r.status === 'error') this.queue.forget(prompt);
    } catch (err) {
      // the turn ended before (or without) storing its user message: the row goes now
      if (stored) this.queue.forget(prompt);
      this.emit('error', turnErrorPayload(err));
    } finally {
      this.current = undefined;
      this.setState(status === 'interrupted' ? 'interrupted' : 'idle');
      this.emit('turn.end', {
        prompt_id: prompt.prompt_id,
        status,
        ...(prompt.origin ? { origin: prompt.origin } : {}),
      });
      // guidance that found no step boundary runs next, ahead of the queue (never lost)
      this.steering.turnEnded();
    }
  }

  /**
   * Guidance for the running turn (`session.steer`, steering.ts): delivered at its next step
   * boundary, or run as the next prompt when no turn runs or the turn ends first.
   */
  steer(text: string, by?: string): MethodResult<'session.steer'> {
    const turnRunning = this.current !== undefined && this.current.promptId !== 'compact';
    return this.steering.steer(text, by, turnRunning);
  }

  /**
   * Runs `edit` (a change of the stored transcript: undo, rewind) while no turn may start: prompts
   * submitted meanwhile queue and run after it. `edit` gets the agent when it was built (its
   * history must follow the edit) and may be async (a file restore).
   * @throws Error (`SessionBusyError`) while a turn, `/compact` or the queue runs.
   */
  async whileIdle<T>(what: string, edit: (agent: SessionAgent | undefined) => T | Promise<T>): Promise<T> {
    if (this.runner || this.current || this.paused > 0)
      throw new SessionBusyError(
        `a turn is running; interrupt it first (Esc, or Ctrl+C), then ${what} again`,
      );
    this.paused++;
    try {
      return await edit(this.agentInstance);
    } finally {
      this.paused--;
      if (this.paused === 0 && this.queue.hasRunnable) this.startRunner(true);
    }
  }

  /**
   * Interrupts the running turn: stops the stream and tools, answers open requests with their
   * fail-closed default, keeps the partial reply. Queued prompts stay queued and run next.
   * @returns whether a turn was running.
   */
  interrupt(): boolean {
    this.requests.cancelAll('interrupt');
    if (!this.current) return false;
    this.current.controller.abort();
    return true;
  }

  private setState(state: string): void {
    try {
      // a drain marked it resume_pending: leave that to the registry
      if (this.opts.store.getSession(this.id)?.state !== 'resume_pending')
        this.opts.store.setSessionState(this.id, state);
    } catch (err) {
      // bookkeeping only: the turn goes on, but the operator learns the record is stale
      this.opts.log?.(`session ${this.id}: cannot record its state "${state}": ${(err as Error).message}`);
    }
  }

  /** Resolves when the running turn and the queue are done (used by drain). */
  async idle(): Promise<void> {
    while (this.runner) await this.runner;
  }

  /**
   * Shutdown: the waiting prompts will not run in this daemon. They stay stored and come back
   * held after the restart; every client is told so, with their text.
   */
  holdQueue(): void {
    this.holding = true;
    if (this.queue.holdAll() === 0) return;
    const waiting = this.queue.list();
    this.emit('prompt.queued', { queued: waiting });
    this.emit('error', { message: shutdownNotice(waiting), kind: 'shutdown' });
  }

  /** `/queue run`: lets held prompts run (after the running turn, if any). @returns how many. */
  runHeld(): number {
    const n = this.queue.release();
    if (n === 0) return 0;
    this.emit('prompt.queued', { queued: this.queue.list() });
    this.startRunner(true);
    return n;
  }

  /** `/queue drop`: discards every waiting prompt (held or not). @returns the prompts dropped. */
  dropQueued(): QueuedPrompt[] {
    const dropped = this.queue.dropAll();
    if (dropped.length > 0)
      this.emit('prompt.queued', { queued: [], dropped: dropped.map((p) => p.prompt_id) });
    return dropped;
  }

  /**
   * Takes the waiting prompts (held or not) that `pick` selects out of the queue, for their owner
   * to submit again in its own order (a platform recovering after a restart). @returns them.
   */
  takeQueued(pick: (p: QueuedPrompt) => boolean): QueuedPrompt[] {
    const taken = this.queue.take(pick);
    if (taken.length > 0)
      this.emit('prompt.queued', { queued: this.queue.list(), dropped: taken.map((p) => p.prompt_id) });
    return taken;
  }

  /** The waiting prompts, in queue order (held ones included). */
  queued(): QueuedPrompt[] {
    return this.queue.list();
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
