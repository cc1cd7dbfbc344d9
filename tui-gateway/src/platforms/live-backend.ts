/**
 * The daemon's `AgentBackend` for platform pipelines (core/src/messaging/backend.ts): platform
 * sessions are ordinary live sessions of the `SessionRegistry`, so a TUI attached to one sees
 * the turn stream and can answer its approvals.
 *
 * A platform takes part in a live session like a client: while it has turns queued or running
 * it attaches a `PlatformConnection` (a `Connection` without a socket). Through it the platform
 * receives the session's events — only those between the `turn.start` and `turn.end` of its own
 * prompts are forwarded to the pipeline — and the session's approval / clarify server requests
 * during its turns, which it asks in the chat.
 *
 * A turn is matched to its message by identity only: the inbound message id travels with the
 * prompt as its `origin` (prompt.submit → the queue → `turn.start` / `turn.end`). A prompt that
 * will not run here is settled only when an event names it: listed `held` in `prompt.queued`
 * (a shutdown kept it for the restart) or in its `dropped` (discarded). Nothing is inferred from
 * what a queue listing does not contain. The session's
 * open-request logic does the rest: the first answer (chat, button or TUI) wins and the others
 * are withdrawn. Once its last turn ended, the platform detaches, so idle platform sessions
 * unload like any other.
 *
 * Bounds: the live sessions a platform loaded are kept in least-recently-used order; past
 * `maxLive` (default 64) the least recently used idle ones (no turn, no client) are unloaded, and
 * any idle for `idleMs` (default 15 min) is unloaded by a sweep. An unloaded session loads again
 * from the store on its next message. `release` unloads a one-off conversation's session as soon
 * as its answer is sent (and deletes its stored transcript unless it is to be kept).
 *
 * This module only uses `SessionRegistry` (`get`, `peek`, `profile`, `unload`) and `LiveSession`
 * (`attach`, `detach`, `submit`, `interrupt`, `takeQueued`).
 */
import { randomBytes } from 'node:crypto';
import {
  type AgentBackend,
  type ApprovalChoiceName,
  type NewPlatformSession,
  type SessionStatus,
  type TakenPrompt,
  type TurnOptions,
  type TurnOutcome,
  type TurnSink,
} from '@hermes/core/messaging';
import { createPlatformSession } from '@hermes/core/platform-sessions';
import { contextWindowFor, type ReasoningEffort } from '@hermes/core/model';
import type { StoredImage } from '@hermes/core/images';
import {
  APPROVAL_CHOICES,
  type ServerRequestMethod,
  type ServerRequestParams,
  type ServerRequestResult,
  type WireEvent,
} from '@hermes/core/protocol';
import type { Connection } from '../rpc/types.js';
import type { LiveSession } from '../sessions/live-session.js';
import { sessionPromptImages } from '../sessions/prompt-images.js';
import type { SessionRegistry } from '../sessions/session-registry.js';

/** One prompt of the platform in a live session. */
interface Turn {
  /** The prompt's origin: the inbound message id. */
  origin: string;
  promptId?: string;
  sink: TurnSink;
  started: boolean;
  text: string;
  /** Message of the turn's `error` event, if any. */
  error?: string;
  resolve: (o: TurnOutcome) => void;
}

/** The platform's pseudo-client of one live session. */
class PlatformConnection implements Connection {
  readonly id: string;
  readonly clientName: string;
  readonly capabilities = { approvals: true, clarify: true };
  closed = false;
  /** By origin. */
  private readonly turns = new Map<string, Turn>();
  private readonly byPrompt = new Map<string, Turn>();
  private current: Turn | undefined;
  private readonly closeCallbacks: Array<() => void> = [];

  constructor(
    platform: string,
    public profile: string,
    private readonly live: LiveSession,
    private readonly onUsage: (sessionId: string, tokens: number) => void,
    private readonly onIdle: () => void,
  ) {
    this.id = `p-${platform}-${randomBytes(3).toString('hex')}`;
    this.clientName = `platform:${platform}`;
  }

  /** Submits a prompt and resolves when its turn ended (or it was held or dropped). */
  run(text: string, sink: TurnSink, origin?: string, images?: StoredImage[]): Promise<TurnOutcome> {
    const id = origin ?? `o-${randomBytes(6).toString('hex')}`;
    return new Promise<TurnOutcome>((resolve) => {
      if (this.turns.has(id)) {
        resolve({ status: 'error', text: '', error: `message ${id} already has a prompt here` });
        return;
      }
      const turn: Turn = { origin: id, sink, started: false, text: '', resolve };
      this.turns.set(id, turn);
      try {
        turn.promptId = this.live.submit(text, this.clientName, id, images).prompt_id;
        if (this.turns.get(id) === turn) this.byPrompt.set(turn.promptId, turn);
      } catch (err) {
        this.finish(turn, { status: 'error', text: '', error: (err as Error).message });
      }
    });
  }

  get pending(): number {
    return this.turns.size;
  }

  private finish(turn: Turn, outcome: TurnOutcome): void {
    if (this.turns.get(turn.origin) !== turn) return;
    this.turns.delete(turn.origin);
    if (turn.promptId) this.byPrompt.delete(turn.promptId);
    if (this.current === turn) this.current = undefined;
    turn.resolve(outcome);
    if (this.turns.size === 0) this.onIdle();
  }

  /** The turn an event names: by origin, else by prompt id. */
  private named(p: Record<string, unknown>): Turn | undefined {
    const origin = typeof p.origin === 'string' ? this.turns.get(p.origin) : undefined;
    return origin ?? (typeof p.prompt_id === 'string' ? this.byPrompt.get(p.prompt_id) : undefined);
  }

  notify(ev: WireEvent): void {
    const p = ev.payload as Record<string, unknown>;
    if (ev.type === 'turn.start') {
      this.current = this.named(p);
      if (this.current) {
        this.current.started = true;
        this.current.promptId ??= String(p.prompt_id);
        try {
          this.current.sink.onStart?.(String(p.prompt_id));
        } catch {
          /* the pipeline contains its own failures */
        }
      }
      return;
    }
    if (ev.type === 'turn.end') {
      const turn = this.named(p);
      if (this.current === turn || !turn) this.current = undefined;
      if (turn)
        this.finish(turn, {
          status: String(p.status ?? 'error'),
          text: turn.text,
          ...(turn.error ? { error: turn.error } : {}),
        });
      return;
    }
    if (ev.type === 'prompt.queued') {
      // only what the event names settles a prompt: held for the restart, or dropped
      for (const q of (p.queued as Array<{ prompt_id: string; origin?: string; held?: boolean }>) ?? []) {
        const t = q.held ? this.named(q) : undefined;
        if (t && !t.started) this.finish(t, { status: 'held', text: '' });
      }
      for (const promptId of (p.dropped as string[] | undefined) ?? []) {
        const t = this.byPrompt.get(promptId);
        if (t && !t.started) this.finish(t, { status: 'dropped', text: '' });
      }
      return;
    }
    const turn = this.current;
    if (!turn) return;
    if (ev.type === 'message.complete') turn.text = String(p.text ?? '');
    if (ev.type === 'session.usage' && typeof p.context_tokens === 'number')
      this.onUsage(this.live.id, p.context_tokens);
    if (ev.type === 'error' && typeof p.message === 'string' && p.kind !== 'notice') turn.error = p.message;
    try {
      turn.sink.onEvent({ type: ev.type, payload: p });
    } catch {
      /* the pipeline contains its own failures */
    }
  }

  request<M extends ServerRequestMethod>(
    method: M,
    params: ServerRequestParams<M>,
    signal?: AbortSignal,
  ): Promise<ServerRequestResult<M>> {
    const turn = this.current;
    if (!turn) return Promise.reject(new Error('not a turn of this platform'));
    const sig = signal ?? new AbortController().signal;
    const q = params as unknown as Record<string, unknown>;
    if (method === 'approval.request') {
      return turn.sink
        .onApproval(
          {
            requestId: String(q.request_id),
            command: String(q.command ?? ''),
            description: String(q.description ?? ''),
            choices: (q.choices as ApprovalChoiceName[]) ?? [...APPROVAL_CHOICES],
            ...(typeof (q.edit as { diff?: unknown } | undefined)?.diff === 'string'
              ? { diff: (q.edit as { diff: string }).diff }
              : {}),
          },
          sig,
        )
        .then((a) => (typeof a === 'string' ? { choice: a } : { ...a }) as unknown as ServerRequestResult<M>);
    }
    if (method === 'clarify.request') {
      return turn.sink
        .onClarify(
          {
            requestId: String(q.request_id),
            question: String(q.question ?? ''),
            ...(Array.isArray(q.choices) ? { choices: q.choices.map(String) } : {}),
          },
          sig,
        )
        .then((answer) => ({ answer }) as unknown as ServerRequestResult<M>);
    }
    return Promise.reject(new Error(`${method} is not supported on platforms`));
  }

  onClose(cb: () => void): void {
    this.closeCallbacks.push(cb);
  }

  /** Ends the pseudo-connection (detach from the session). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const cb of this.closeCallbacks.splice(0)) cb();
    for (const t of [...this.turns.values()])
      this.finish(t, { status: 'interrupted', text: t.text, error: 'the session was closed' });
  }
}

/** Live sessions one platform keeps loaded at most. */
export const PLATFORM_MAX_LIVE_SESSIONS = 64;
/** A platform's live session idle (no turn, no client) this long is unloaded, ms. */
export const PLATFORM_IDLE_UNLOAD_MS = 15 * 60 * 1000;

/** Bounds of a `LiveSessionBackend`. */
export interface LiveBackendLimits {
  /** Default `PLATFORM_MAX_LIVE_SESSIONS`. */
  maxLive?: number;
  /** ms (default `PLATFORM_IDLE_UNLOAD_MS`). */
  idleMs?: number;
}

/** Platform turns through the daemon's live sessions. */
export class LiveSessionBackend implements AgentBackend {
  private readonly connections = new Map<LiveSession, PlatformConnection>();
  private readonly contextTokens = new Map<string, number>();
  /** Session ids this platform ran turns in → epoch ms of the last use; oldest first. */
  private readonly used = new Map<string, number>();
  /** Chat id → the session created for it (for `release`), and back; dropped when it unloads. */
  private readonly byChat = new Map<string, string>();
  private readonly chatOf = new Map<string, string>();
  private readonly maxLive: number;
  private readonly idleMs: number;
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly sessions: SessionRegistry,
    private readonly profile: string,
    private readonly platform: string,
    limits: LiveBackendLimits = {},
  ) {
    this.maxLive = Math.max(1, limits.maxLive ?? PLATFORM_MAX_LIVE_SESSIONS);
    this.idleMs = limits.idleMs ?? PLATFORM_IDLE_UNLOAD_MS;
    this.sweep = setInterval(() => this.unloadIdle(), Math.max(1000, Math.min(this.idleMs, 60_000)));
    this.sweep.unref();
  }

  createSession(init: NewPlatformSession): string {
    const p = this.sessions.profile(this.profile);
    const id = createPlatformSession(p.db, p.home, p.config, init);
    const chat = init.source.chatId ?? init.source.userId;
    if (chat) {
      this.byChat.set(chat, id);
      this.chatOf.set(id, chat);
    }
    return id;
  }

  /** Forgets a session that unloaded: its LRU entry, its chat and its token count. */
  private forget(id: string): void {
    this.used.delete(id);
    this.contextTokens.delete(id);
    const chat = this.chatOf.get(id);
    this.chatOf.delete(id);
    if (chat !== undefined && this.byChat.get(chat) === id) this.byChat.delete(chat);
  }

  /** Live sessions of this platform now loaded. */
  get liveCount(): number {
    let n = 0;
    for (const id of this.used.keys()) if (this.sessions.peek(this.profile, id)) n++;
    return n;
  }

  /** Unloads the session when it is loaded, idle and watched by no client. @returns whether it is gone. */
  private tryUnload(id: string): boolean {
    const live = this.sessions.peek(this.profile, id);
    if (!live) return true;
    if (live.busy || live.clients.size > 0) return false;
    this.sessions.unload(this.profile, id);
    return true;
  }

  /** Unloads least recently used idle sessions while more than `maxLive` are tracked. */
  private trim(): void {
    for (const id of [...this.used.keys()]) {
      if (this.used.size <= this.maxLive) return;
      if (this.tryUnload(id)) this.forget(id);
    }
  }

  /** Unloads the sessions idle for `idleMs` or longer. @returns how many went. */
  unloadIdle(now = Date.now()): number {
    let n = 0;
    for (const [id, at] of [...this.used]) {
      const live = this.sessions.peek(this.profile, id);
      if (!live) {
        this.forget(id);
        continue;
      }
      if (now - Math.max(at, live.lastActivity) >= this.idleMs && this.tryUnload(id)) {
        this.forget(id);
        n++;
      }
    }
    return n;
  }

  /**
   * A one-off conversation is over (its answer was sent): unloads its session unless a client
   * watches it, and deletes its stored transcript unless `keepStored` (never while it is live).
   */
  release(chatId: string, opts: { keepStored: boolean }): void {
    const id = this.byChat.get(chatId);
    if (!id) return;
    if (!this.tryUnload(id)) return; // watched or busy: the LRU and the sweep take it later
    this.forget(id);
    if (opts.keepStored) return;
    try {
      this.sessions.profile(this.profile).db.deleteSession(id);
    } catch {
      /* already gone */
    }
  }

  runTurn(sessionId: string, text: string, sink: TurnSink, opts: TurnOptions = {}): Promise<TurnOutcome> {
    let live: LiveSession;
    try {
      live = this.sessions.get(this.profile, sessionId);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    let images: StoredImage[] = [];
    if (opts.images?.length) {
      try {
        images = sessionPromptImages(this.sessions.profile(this.profile), live.id, opts.images);
      } catch (err) {
        // a refused image or a model without vision: the client's request was bad, say so
        const message = (err as Error).message;
        sink.onEvent({ type: 'error', payload: { message, kind: 'invalid_request' } });
        return Promise.resolve({ status: 'error', text: '', error: message });
      }
    }
    this.used.delete(live.id);
    this.used.set(live.id, Date.now());
    let conn = this.connections.get(live);
    if (!conn || conn.closed) {
      const c = new PlatformConnection(
        this.platform,
        this.profile,
        live,
        (id, tokens) => this.contextTokens.set(id, tokens),
        () => {
          // last turn ended: leave the fan-out so the session can unload when idle
          this.connections.delete(live);
          c.closed = true;
          live.detach(c);
          this.used.delete(live.id);
          this.used.set(live.id, Date.now());
          // after the turn's event fan-out has finished
          setImmediate(() => this.trim());
        },
      );
      conn = c;
      this.connections.set(live, c);
      live.attach(c);
    }
    return conn.run(text, sink, opts.origin, images);
  }

  takeQueued(sessionId: string, origins: ReadonlySet<string>): TakenPrompt[] {
    const live = this.sessions.get(this.profile, sessionId);
    return live
      .takeQueued((q) => q.origin !== undefined && origins.has(q.origin))
      .map((q) => ({ origin: q.origin!, text: q.text }));
  }

  interrupt(sessionId: string): boolean {
    return this.sessions.peek(this.profile, sessionId)?.interrupt() ?? false;
  }

  isBusy(sessionId: string): boolean {
    return this.sessions.peek(this.profile, sessionId)?.busy ?? false;
  }

  status(sessionId: string): SessionStatus | undefined {
    const live = this.sessions.peek(this.profile, sessionId);
    const id = live?.id ?? sessionId;
    const p = this.sessions.profile(this.profile);
    const r = p.db.getSession(id);
    if (!r) return undefined;
    const tokens = this.contextTokens.get(id);
    // clients besides this platform's own pseudo-connection
    const clients = live ? [...live.clients].filter((c) => !c.clientName.startsWith('platform:')).length : 0;
    return {
      id,
      title: r.title,
      model: r.model,
      cwd: r.cwd,
      busy: live?.busy ?? false,
      clients,
      ...(tokens !== undefined ? { contextTokens: tokens } : {}),
      ...(r.model ? { contextWindow: contextWindowFor(r.model, p.config) } : {}),
    };
  }

  reasoningEffort(
    sessionId: string,
    set?: ReasoningEffort | null,
  ): { effort: ReasoningEffort | undefined; own: boolean } {
    return this.sessions.reasoningEffort(this.profile, sessionId, set);
  }

  /** Detaches every platform connection (shutdown). */
  closeAll(): void {
    clearInterval(this.sweep);
    for (const c of [...this.connections.values()]) c.close();
    this.connections.clear();
  }
}
