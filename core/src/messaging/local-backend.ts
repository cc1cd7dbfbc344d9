/**
 * An `AgentBackend` that runs agents in this process (no daemon): each platform session gets
 * its own `Agent` through `openAgentSession`. Used by tests of the pipeline and by tools that
 * answer a platform without the daemon. Heavy (agent, tools): import it by subpath.
 */
import { randomUUID } from 'node:crypto';
import { MediaStore, type StoredImage } from '../images/media-store.js';
import { ImageAttachmentError, resolveImages } from '../images/resolve.js';
import type { Agent } from '../agent/agent.js';
import { openAgentSession } from '../agent/session-runtime.js';
import type { HermesConfig } from '../config/schema.js';
import type { Secrets } from '../config/secrets.js';
import type { HermesHome } from '../home/home.js';
import { contextWindowFor } from '../model/context-windows.js';
import type { ReasoningEffort } from '../model/reasoning.js';
import type { ModelClient } from '../model/types.js';
import type { SessionDB } from '../state/session-db.js';
import type {
  AgentBackend,
  NewPlatformSession,
  SessionStatus,
  TurnOptions,
  TurnOutcome,
  TurnSink,
} from './backend.js';
import { createPlatformSession } from './session-factory.js';

/** Options of the in-process backend. */
export interface InProcessBackendOptions {
  home: HermesHome;
  config: HermesConfig;
  secrets: Secrets;
  db: SessionDB;
  /** Replaces the model client (tests). */
  modelClient?: ModelClient;
}

interface Loaded {
  agent: Agent;
  /** The session's own reasoning effort the agent was opened with. */
  effort?: ReasoningEffort;
  /** The sink of the running turn. */
  sink?: TurnSink;
  controller?: AbortController;
  queue: Promise<unknown>;
  contextTokens?: number;
}

/** Runs platform turns with in-process agents, one turn at a time per session. */
export class InProcessBackend implements AgentBackend {
  private readonly sessions = new Map<string, Loaded>();
  /** Sessions' own reasoning efforts (`/reasoning`), over `model.reasoning_effort`. */
  private readonly efforts = new Map<string, ReasoningEffort>();

  constructor(private readonly opts: InProcessBackendOptions) {}

  createSession(init: NewPlatformSession): string {
    return createPlatformSession(this.opts.db, this.opts.home, this.opts.config, init);
  }

  private load(sessionId: string): Loaded {
    let l = this.sessions.get(sessionId);
    const effort = this.efforts.get(sessionId);
    // a changed effort reopens an idle session's agent with it (history is read back from the store)
    if (l && (l.effort === effort || l.agent.isBusy)) return l;
    const base = this.opts.config;
    const config = effort ? { ...base, model: { ...base.model, reasoning_effort: effort } } : base;
    const holder: { l?: Loaded } = {};
    const opened = openAgentSession({
      home: this.opts.home,
      source: 'gateway',
      select: { kind: 'id', id: sessionId },
      cwd: this.opts.home.path('workspace'),
      db: this.opts.db,
      config,
      secrets: this.opts.secrets,
      ...(this.opts.modelClient ? { modelClient: this.opts.modelClient } : {}),
      onEvent: (e) => {
        if (e.type === 'session.usage') {
          const tokens = (e.payload as { context_tokens?: number }).context_tokens;
          if (holder.l && typeof tokens === 'number') holder.l.contextTokens = tokens;
        }
        holder.l?.sink?.onEvent({ type: e.type, payload: e.payload as Record<string, unknown> });
      },
      onApproval: async (req, signal) => {
        const sink = holder.l?.sink;
        if (!sink) return 'deny';
        const a = await sink.onApproval(
          {
            requestId: req.requestId || randomUUID(),
            command: req.command,
            description: req.description,
            choices: req.choices,
            ...(req.edit ? { diff: req.edit.diff } : {}),
          },
          signal,
        );
        if (typeof a === 'string') return a;
        return { choice: a.choice, by: 'user', ...(a.reason ? { reason: a.reason } : {}) };
      },
      onClarify: (q, signal) => {
        const sink = holder.l?.sink;
        if (!sink) return Promise.reject(new Error('nobody to ask'));
        return sink.onClarify(
          { requestId: randomUUID(), question: q.question, ...(q.choices ? { choices: q.choices } : {}) },
          signal,
        );
      },
    });
    l = { agent: opened.agent, queue: l?.queue ?? Promise.resolve(), ...(effort ? { effort } : {}) };
    holder.l = l;
    this.sessions.set(sessionId, l);
    return l;
  }

  runTurn(sessionId: string, text: string, sink: TurnSink, opts: TurnOptions = {}): Promise<TurnOutcome> {
    const l = this.load(sessionId);
    const run = l.queue.then(async (): Promise<TurnOutcome> => {
      l.sink = sink;
      l.controller = new AbortController();
      sink.onStart?.(opts.origin ?? randomUUID());
      try {
        let images: StoredImage[] = [];
        try {
          images = resolveImages(opts.images, {
            store: new MediaStore(this.opts.home.mediaDir),
            cwd: this.opts.home.path('workspace'),
            maxBytes: this.opts.config.images.max_bytes,
            home: this.opts.home,
          });
        } catch (err) {
          if (!(err instanceof ImageAttachmentError)) throw err;
          sink.onEvent({ type: 'error', payload: { message: err.message, kind: 'invalid_request' } });
          return { status: 'error', text: '', error: err.message };
        }
        const r = await l.agent.runTurn(text, l.controller.signal, images.length ? { images } : {});
        return { status: r.status, text: r.text, ...(r.error ? { error: r.error } : {}) };
      } finally {
        l.sink = undefined;
        l.controller = undefined;
      }
    });
    l.queue = run.catch(() => undefined);
    return run;
  }

  interrupt(sessionId: string): boolean {
    const c = this.sessions.get(sessionId)?.controller;
    if (!c) return false;
    c.abort();
    return true;
  }

  isBusy(sessionId: string): boolean {
    return this.sessions.get(sessionId)?.agent.isBusy ?? false;
  }

  reasoningEffort(
    sessionId: string,
    set?: ReasoningEffort | null,
  ): { effort: ReasoningEffort | undefined; own: boolean } {
    if (set === null) this.efforts.delete(sessionId);
    else if (set !== undefined) this.efforts.set(sessionId, set);
    const own = this.efforts.get(sessionId);
    return own ? { effort: own, own: true } : { effort: this.opts.config.model.reasoning_effort, own: false };
  }

  status(sessionId: string): SessionStatus | undefined {
    const r = this.opts.db.getSession(sessionId);
    if (!r) return undefined;
    const l = this.sessions.get(sessionId);
    return {
      id: r.id,
      title: r.title,
      model: r.model,
      cwd: r.cwd,
      busy: l?.agent.isBusy ?? false,
      ...(l?.contextTokens !== undefined ? { contextTokens: l.contextTokens } : {}),
      ...(r.model ? { contextWindow: contextWindowFor(r.model, this.opts.config) } : {}),
    };
  }
}
