/**
 * The turns of one live session: one runs at a time (a prompt, or `/compact`), prompts submitted
 * meanwhile wait in the session's queue (prompt-queue.ts) and run one after the other, a
 * transcript edit (`whileIdle`) keeps any from starting, guidance steers the running turn
 * (steering.ts), and shutdown holds what still waits.
 *
 * The session's fan-out, replay and open requests stay in live-session.ts; this part reaches them
 * through `TurnsHost`.
 */
import type { CompressionOutcome } from '@hermes/core/agent';
import type { StoredImage } from '@hermes/core/images';
import type { EventPayload, EventType, MethodResult, QueuedPrompt, SessionInfo } from '@hermes/core/protocol';
import type { SessionAgent, SessionPersistence } from './live-session-types.js';
import { newPrompt, PromptQueue, shutdownNotice } from './prompt-queue.js';
import { Steering } from './steering.js';
import { TurnStartError, turnErrorPayload } from './turn-errors.js';

/** A transcript edit refused because the session is running a turn (`LiveSession.whileIdle`). */
export class SessionBusyError extends Error {}

/** What the turns need of their live session; read at each use (the id changes on compression). */
export interface TurnsHost {
  /** The session id now. */
  id(): string;
  /** The session's agent, built on first use (a failure throws). */
  agent(): SessionAgent;
  /** The profile's SessionDB. */
  store: SessionPersistence;
  /** Emits an event of the session to every client (next seq, replay ring). */
  emit<K extends EventType>(type: K, payload: EventPayload<K>): unknown;
  /** Session metadata for clients (`session.info`). */
  info(): SessionInfo;
  /** A turn or `/compact` started: the session made progress now (drain's stall check). */
  progress(): void;
  /** The queue ran empty (the session may be unloaded when no client is attached). */
  drained(): void;
  /** Runs a write of the session's bookkeeping; a failure is logged, never thrown. */
  bookkeeping(what: string, write: () => unknown): void;
  /** Where problems are reported. */
  log?: (line: string) => void;
}

/** The turn slot and prompt queue of one live session (see the file comment). */
export class SessionTurns {
  private readonly queue: PromptQueue;
  private current: { promptId: string; controller: AbortController } | undefined;
  private runner: Promise<void> | undefined;
  /** Guidance for the running turn (`/steer`), steering.ts. */
  private readonly steering: Steering;
  /** While above 0 no prompt starts (a transcript edit runs, `whileIdle`); prompts queue. */
  private paused = 0;
  /** Set by `holdQueue` (shutdown): a prompt added later (missed guidance) is held too. */
  private holding = false;

  /** @param host the session's parts, read live (see `TurnsHost`). */
  constructor(private readonly host: TurnsHost) {
    this.queue = new PromptQueue(
      host.store,
      () => host.id(),
      (m) => host.log?.(m),
    );
    this.steering = new Steering({
      emit: (type, payload) => host.emit(type, payload),
      submitPrompt: (text, by, first) => this.submit(text, by, undefined, [], first).prompt_id,
      persist: {
        add: (id, text, by) =>
          host.bookkeeping('store its guidance', () =>
            host.store.queuePrompt(host.id(), { promptId: id, text, ...(by ? { by } : {}) }),
          ),
        remove: (id) => host.bookkeeping('forget its delivered guidance', () => host.store.unqueuePrompt(id)),
      },
    });
  }

  /** True while a turn (or `/compact`) runs. */
  get busy(): boolean {
    return this.current !== undefined;
  }

  /**
   * Compresses the context now (`/compact [focus]`). Runs like a turn: prompts submitted
   * meanwhile queue behind it, and an interrupt cancels it.
   * @throws Error while a turn runs or when the agent cannot compact; ModelError from the summary.
   */
  async compact(focus?: string): Promise<CompressionOutcome | undefined> {
    const agent = this.host.agent();
    if (!agent.compact) throw new Error('this session cannot compact its context');
    if (this.runner) throw new Error('a turn is running; use /compact when it has finished');
    const controller = new AbortController();
    this.current = { promptId: 'compact', controller };
    this.host.progress();
    let run: Promise<CompressionOutcome | undefined>;
    try {
      run = agent.compact(focus, controller.signal);
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
        this.host.emit('session.info', { session: this.host.info() }); // clients learn it is idle again
        if (this.queue.hasRunnable) this.startRunner(true);
      });
    return run;
  }

  /**
   * Submits a prompt: runs now when idle, else queues it (two clients typing share one queue); a
   * prompt that waits is stored until its turn starts (prompt-queue.ts). Held prompts do not
   * make a new one wait.
   * @param by who submitted it (connection id or client name).
   * @param origin id of the inbound message it answers, echoed in the queue, `turn.start`, `turn.end`.
   * @param images its checked images (prompt-images.ts), listed as chips and sent to the model.
   * @param first queue it ahead of the waiting prompts (guidance that found no step boundary).
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
    if (wasBusy) this.host.emit('prompt.queued', { queued: this.queue.list() });
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
        if (!first) this.host.emit('prompt.queued', { queued: this.queue.list() });
        first = false;
        await this.runPrompt(next.prompt, next.stored, next.images);
      }
      this.host.drained();
    } catch (err) {
      this.host.log?.(`session ${this.host.id()}: running its queue failed: ${(err as Error).message}`);
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
    const host = this.host;
    const controller = new AbortController();
    this.current = { promptId: prompt.prompt_id, controller };
    host.progress();
    let status = 'error';
    try {
      host.emit('turn.start', {
        prompt_id: prompt.prompt_id,
        text: prompt.text,
        ...(prompt.by ? { by: prompt.by } : {}),
        ...(prompt.origin ? { origin: prompt.origin } : {}),
        ...(prompt.attachments ? { attachments: prompt.attachments } : {}),
      });
      try {
        host.store.setSessionState(host.id(), 'running'); // crash recovery relies on it
      } catch (err) {
        throw new TurnStartError(err);
      }
      const r = await host.agent().runTurn(prompt.text, controller.signal, {
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
      host.emit('error', turnErrorPayload(err));
    } finally {
      this.current = undefined;
      this.setState(status === 'interrupted' ? 'interrupted' : 'idle');
      host.emit('turn.end', {
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
   * submitted meanwhile queue and run after it. `edit` may be async (a file restore).
   * @throws Error (`SessionBusyError`) while a turn, `/compact` or the queue runs.
   */
  async whileIdle<T>(what: string, edit: () => T | Promise<T>): Promise<T> {
    if (this.runner || this.current || this.paused > 0)
      throw new SessionBusyError(
        `a turn is running; interrupt it first (Esc, or Ctrl+C), then ${what} again`,
      );
    this.paused++;
    try {
      return await edit();
    } finally {
      this.paused--;
      if (this.paused === 0 && this.queue.hasRunnable) this.startRunner(true);
    }
  }

  /**
   * Aborts the running turn (or `/compact`): stops the stream and tools, keeps the partial reply.
   * Queued prompts stay queued and run next.
   * @returns whether one was running.
   */
  interrupt(): boolean {
    if (!this.current) return false;
    this.current.controller.abort();
    return true;
  }

  /**
   * Records the session's lifecycle state (`running`, `idle`, `interrupted`) unless a drain
   * marked it `resume_pending` (the registry's to change). A failure is logged.
   */
  setState(state: string): void {
    try {
      // a drain marked it resume_pending: leave that to the registry
      if (this.host.store.getSession(this.host.id())?.state !== 'resume_pending')
        this.host.store.setSessionState(this.host.id(), state);
    } catch (err) {
      // bookkeeping only: the turn goes on, but the operator learns the record is stale
      this.host.log?.(
        `session ${this.host.id()}: cannot record its state "${state}": ${(err as Error).message}`,
      );
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
    this.host.emit('prompt.queued', { queued: waiting });
    this.host.emit('error', { message: shutdownNotice(waiting), kind: 'shutdown' });
  }

  /** `/queue run`: lets held prompts run (after the running turn, if any). @returns how many. */
  runHeld(): number {
    const n = this.queue.release();
    if (n === 0) return 0;
    this.host.emit('prompt.queued', { queued: this.queue.list() });
    this.startRunner(true);
    return n;
  }

  /** `/queue drop`: discards every waiting prompt (held or not). @returns the prompts dropped. */
  dropQueued(): QueuedPrompt[] {
    const dropped = this.queue.dropAll();
    if (dropped.length > 0)
      this.host.emit('prompt.queued', { queued: [], dropped: dropped.map((p) => p.prompt_id) });
    return dropped;
  }

  /**
   * Takes the waiting prompts (held or not) that `pick` selects out of the queue, for their owner
   * to submit again in its own order (a platform recovering after a restart). @returns them.
   */
  takeQueued(pick: (p: QueuedPrompt) => boolean): QueuedPrompt[] {
    const taken = this.queue.take(pick);
    if (taken.length > 0)
      this.host.emit('prompt.queued', { queued: this.queue.list(), dropped: taken.map((p) => p.prompt_id) });
    return taken;
  }

  /** The waiting prompts, in queue order (held ones included). */
  queued(): QueuedPrompt[] {
    return this.queue.list();
  }
}
