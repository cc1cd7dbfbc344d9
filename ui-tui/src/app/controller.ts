/**
 * The session controller: glues a gateway client to the session store. It connects, picks and
 * attaches the session (continue / new / a given one), feeds events and attach results to the
 * reducer, holds server requests until the user answers, and runs the session-level actions of
 * the App (submit, interrupt, resume, new, profile, model, slash commands). No Ink in here.
 */
import type {
  SessionInfo,
  ServerRequestMethod,
  ServerRequestParams,
  ServerRequestResult,
} from '@hermes/core/protocol';
import { ModelCatalogSource } from '../commands/model-complete.js';
import { HubNotifier } from './hub-notifier.js';
import { DropServerRequest, NotConnectedError, type DaemonClientLike } from '@hermes/client';
import { clearTranscript, loadOlder, type HistoryHost } from './history-window.js';
import type { SetupChoice } from '../setup/model-setup.js';
import {
  createSessionReducer,
  initialSessionState,
  requestView,
  unknownEventLog,
  type SessionAction,
} from '../state/session-reducer.js';
import { createStore, type Store } from '../state/store.js';
import type { SessionState } from '../state/types.js';
import { rewoundNotice } from '../state/conversation-events.js';
import { RequestAnswers } from './answers.js';
import { DaemonLife } from './daemon-life.js';
import { ModelSetupFlow } from './setup-flow.js';
import { discard, PendingAttachments, toPromptAttachments } from './pending-attachments.js';
import { ReferenceSource } from '../refs/reference-source.js';
import { isUrgent, paintFirst, STREAM_QUIET_MS } from './paint-policy.js';
import type { ControllerOptions } from './controller-options.js';
import { LostConnectionHint } from './lost-hint.js';
import { resolveStartTarget, type StartTarget } from './start-target.js';

export type { ControllerOptions } from './controller-options.js';

/** Drives one TUI's session view. */
export class SessionController {
  readonly store: Store<SessionState, SessionAction>;
  /** The gateway client (for calls the controller does not wrap). */
  readonly client: DaemonClientLike;
  /** Answers to approvals and questions (answers.ts). */
  private readonly answers: RequestAnswers;
  private readonly unsubscribe: Array<() => void> = [];
  private readonly now: () => number;
  private outbox: string[] = [];
  /** Images attached to the next prompt (`/image`, `/paste`): sent by `submit`. */
  readonly attachments = new PendingAttachments();
  /** The start in progress (connect, then the first attach or the setup card). */
  private starting: Promise<void> | null = null;
  private readonly setup: ModelSetupFlow;
  /** The session this TUI had open in each profile it left (`/profile` brings it back). */
  private readonly sessionByProfile = new Map<string, string>();
  /** The session open before `/detach` (named in the exit hint). */
  private lastSession: SessionController['exitSession'] = null;
  /** The daemon's life as shown to the user (daemon-life.ts). */
  private readonly life: DaemonLife | null;
  /** Without `life`: says once how to bring a lost daemon back (lost-hint.ts). */
  private readonly lostHint = new LostConnectionHint((text) => this.notice(text, 'warn'));
  /** `@` completion and attachments of the composer (refs/reference-source.ts). */
  readonly references: ReferenceSource = new ReferenceSource({
    request: async (query, limit) => {
      const sessionId = this.state.sessionId;
      if (!sessionId || this.client.state !== 'connected') return null;
      return this.client.request('files.complete', { session_id: sessionId, query, limit });
    },
  });

  /** `/model provider/model` completion in the composer (commands/model-complete.ts). */
  readonly modelCatalog = new ModelCatalogSource(() => this.client.request('model.list', {}));

  constructor(private readonly opts: ControllerOptions) {
    this.client = opts.client;
    this.now = opts.now ?? Date.now;
    const store = (): SessionState => this.state;
    this.setup = new ModelSetupFlow({
      client: opts.client,
      get state() {
        return store();
      },
      dispatch: (a) => this.dispatch(a),
      notice: (text, tone) => this.notice(text, tone),
      open: (target) => this.open(target),
      refreshModel: () => this.refreshModel(),
    });
    // reported after the reduce that met it: a notice is itself an action
    const warn = opts.warn ?? ((line: string) => queueMicrotask(() => this.notice(line, 'warn')));
    const reducer = createSessionReducer({ onUnknownEvent: unknownEventLog(warn) });
    this.store = createStore(reducer, initialSessionState(), {
      throttleMs: opts.throttleMs ?? 33,
      isUrgent,
      quietMs: STREAM_QUIET_MS,
      minFrameMs: 16,
      paintFirst,
      ...(opts.drain ? { drain: opts.drain } : {}),
    });
    this.answers = new RequestAnswers({
      client: opts.client,
      sessionId: () => this.state.sessionId,
      dispatch: (a) => this.dispatch(a),
      notice: (text, tone) => this.notice(text, tone),
    });
    const c = this.client;
    this.life = opts.daemon
      ? new DaemonLife(opts.daemon, {
          state: () => this.state,
          dispatch: (a) => this.dispatch(a),
          notice: (text, tone) => this.notice(text, tone),
          now: this.now,
        })
      : null;
    if (this.life) this.unsubscribe.push(this.life.dispose);
    const notifier = opts.notify
      ? new HubNotifier({ client: c, current: () => this.state.sessionId, write: opts.notify })
      : undefined;
    this.unsubscribe.push(
      c.on('state', (state) => {
        this.life?.connection(state);
        this.dispatch({ type: 'connection', state });
        if (!this.life) this.lostHint.connection(state);
      }),
      c.on('connected', (init, info) => {
        this.dispatch({
          type: 'connected',
          connectionId: init.connection_id,
          profile: init.profile,
          instanceId: c.instanceId,
        });
        void notifier?.connected();
        const told = this.life?.connected(info.epochChanged) ?? false;
        if (info.epochChanged && !told) this.notice('The daemon restarted; re-attaching.', 'warn');
      }),
      c.on('attach', (result) => {
        this.dispatch({ type: 'attach', result, now: this.now() });
        // missed events that rewound the conversation: the screen still shows what was dropped
        const rewound =
          result.kind === 'replay' ? result.events.findLast((e) => e.type === 'session.rewound') : undefined;
        if (rewound?.type === 'session.rewound') void this.reloadTranscript(rewoundNotice(rewound.payload));
        void this.answers.flush().then(() => this.flushOutbox());
        if (!result.session.model) void this.refreshModel();
        void this.refreshBackground();
      }),
      c.on('attachError', (err, { sessionId }) =>
        this.notice(`Could not re-attach session ${sessionId}: ${err.message}`, 'error'),
      ),
      c.on('event', (event) => {
        if (event.type === 'gateway.shutdown') opts.daemon?.noteShutdown();
        if (event.type === 'status.changed') return notifier?.event(event);
        this.dispatch({ type: 'event', event, now: this.now() });
        if (event.type === 'session.rewound' && event.session_id === this.state.sessionId)
          void this.reloadTranscript(rewoundNotice(event.payload));
        if (event.type === 'request.resolved' && typeof event.payload.request_id === 'string') {
          this.answers.resolved(event.payload.request_id);
        }
      }),
    );
    this.unsubscribe.push(
      c.onServerRequest('approval.request', (p) => this.onServerRequest('approval.request', p)),
      c.onServerRequest('clarify.request', (p) => this.onServerRequest('clarify.request', p)),
    );
  }

  /** Current state (latest, not throttled). */
  get state(): SessionState {
    return this.store.getState();
  }

  /** Connects (retrying until the daemon answers) and opens the start session. */
  async start(target: StartTarget): Promise<void> {
    const run = async (): Promise<void> => {
      if (this.client.state !== 'connected') await this.client.connect({ retry: true });
      await this.opts.ready;
      await this.openOrSetup(target);
    };
    this.starting = run();
    try {
      await this.starting;
    } finally {
      this.starting = null;
    }
  }

  /** Waits for the start session while it is being opened (input typed during start-up). */
  private async attached(): Promise<void> {
    if (!this.state.sessionId && this.starting) await this.starting.catch(() => {});
  }

  /** Opens the model setup card when the profile has no usable model, or when `force` (`/setup`). */
  checkModelSetup(force = false): Promise<boolean> {
    return this.setup.check(force);
  }

  /** Saves the setup choice through the daemon, closes the card and opens the waiting session. */
  completeModelSetup(choice: SetupChoice): Promise<void> {
    return this.setup.complete(choice);
  }

  /** Closes the setup card without a model (Esc). */
  skipModelSetup(): void {
    this.setup.skip();
  }

  /**
   * Sends a prompt (queued by the daemon while a turn runs). Kept here, and sent once a session is
   * attached, while disconnected or while no session is open (the start session could not be
   * opened: `hermes tui -s` of an unknown one); the notice says which.
   */
  async submit(text: string): Promise<void> {
    await this.attached();
    const sessionId = this.state.sessionId;
    if (!sessionId || this.client.state !== 'connected') {
      this.outbox.push(text);
      this.notice(
        !sessionId && this.client.state === 'connected'
          ? 'No session is open: /new starts one, /sessions or /resume picks one; the message is sent to it.'
          : 'Not connected: the message will be sent after reconnecting.',
        'warn',
      );
      if (this.attachments.size) this.notice('Attached images stay for the next prompt.', 'warn');
      return;
    }
    // the pending images go with this prompt (back above the composer when it is refused)
    const images = this.attachments.take();
    const attachments = [...this.references.attachments(text), ...toPromptAttachments(images)];
    try {
      await this.client.request('prompt.submit', {
        session_id: sessionId,
        text,
        ...(attachments.length ? { attachments } : {}),
      });
      void discard(images);
    } catch (err) {
      this.attachments.restore(images);
      if (err instanceof NotConnectedError) {
        this.outbox.push(text);
        this.notice('Connection lost: the message will be sent after reconnecting.', 'warn');
      } else {
        this.notice(`Message not sent: ${errorText(err)}`, 'error');
        // a reference the daemon could not attach: the text goes back to the composer to fix
        if (attachments.length) this.references.restore(text);
      }
    }
  }

  /** True when the daemon was stopped (or failed to start) and `startDaemon()` may start it. */
  get canStartDaemon(): boolean {
    return this.opts.daemon?.canRestart ?? false;
  }

  /** Starts the daemon again after a deliberate stop (the user's key); the client then re-attaches. */
  startDaemon(): Promise<void> {
    return this.life?.start() ?? Promise.resolve();
  }

  /** Interrupts the running turn (the daemon keeps the partial reply). */
  async interrupt(): Promise<boolean> {
    const sessionId = this.state.sessionId;
    if (!sessionId) return false;
    try {
      return (await this.client.request('session.interrupt', { session_id: sessionId })).interrupted;
    } catch (err) {
      this.notice(`Interrupt failed: ${errorText(err)}`, 'error');
      return false;
    }
  }

  /**
   * Answers an approval (`approval.answer`, whatever showed the card); the transcript then says
   * how it went (answers.ts).
   */
  answerApproval(requestId: string, choice: string): void {
    this.answers.answer(requestId, { kind: 'approval', choice });
  }

  /** Answers a question (null: cancelled), as `answerApproval` does. */
  answerClarify(requestId: string, answer: string | null): void {
    this.answers.answer(requestId, { kind: 'clarify', answer });
  }

  /** Sessions of the current profile, newest first. */
  async listSessions(limit = 50): Promise<SessionInfo[]> {
    return (await this.client.request('session.list', { limit })).sessions;
  }

  /** Opens a session by id or exact title. */
  async resume(ref: string): Promise<void> {
    await this.open({ mode: 'session', session: ref });
  }

  /** `/new`: a new session in this folder; the notice names the one left behind, when there was one. */
  async newSession(): Promise<void> {
    const previous = this.state.sessionId;
    await this.open({ mode: 'new' });
    const id = this.state.sessionId;
    this.notice(
      `New session${id ? ` ${id}` : ''}.${previous ? ' The previous one stays in /sessions.' : ''}`,
    );
  }

  /**
   * Switches profile inside the same daemon, then opens the session this TUI last had open in
   * that profile (the profile's latest one the first time). The status bar's model is the new
   * profile's from then on.
   */
  async switchProfile(profile: string): Promise<void> {
    const { profile: from, sessionId } = this.state;
    if (from && sessionId) this.sessionByProfile.set(from, sessionId);
    this.answers.dropAll();
    try {
      await this.client.switchProfile(profile);
    } catch (err) {
      // refused (no such profile) or unreachable: back to the profile and session this TUI had
      if (from) {
        await this.client.switchProfile(from).catch(() => undefined);
        if (sessionId)
          await this.setup.openOrSetup({ mode: 'session', session: sessionId }, true).catch(() => {});
      }
      throw err;
    }
    this.dispatch({ type: 'model', model: null });
    void this.refreshModel();
    this.notice(`Profile: ${profile}`);
    const back = this.sessionByProfile.get(profile);
    if (back) {
      try {
        await this.setup.openOrSetup({ mode: 'session', session: back }, true);
        return;
      } catch {
        this.sessionByProfile.delete(profile); // gone meanwhile (deleted): the latest one then
      }
    }
    await this.openOrSetup({ mode: 'continue' }, true);
  }

  /**
   * The session to name when the TUI exits (kept after `/detach`): id, title, profile, and
   * whether a turn is running. Null when none was ever opened.
   */
  get exitSession(): { id: string; title: string | null; profile: string; busy: boolean } | null {
    const s = this.state;
    if (s.sessionId && s.profile) {
      return { id: s.sessionId, title: s.session?.title ?? null, profile: s.profile, busy: s.busy };
    }
    return this.lastSession;
  }

  /** `/history [N]` (history-window.ts). */
  loadOlder(limit = 50): Promise<void> {
    return loadOlder(this.historyHost, limit);
  }

  /** Reads the profile's default model (shown in the status bar when the session names none). */
  async refreshModel(): Promise<void> {
    try {
      const { current } = await this.client.request('model.list', {});
      this.dispatch({ type: 'model', model: current || null });
    } catch {
      // not essential: the status bar just shows no model
    }
  }

  /** Reads how many background processes of the profile run (the status bar's count). */
  async refreshBackground(): Promise<void> {
    try {
      const { running } = await this.client.request('process.list', {});
      this.dispatch({ type: 'background', running });
    } catch {
      // an older daemon without background processes: no count
    }
  }

  /** Runs a command on the daemon (`slash.exec`) and shows its output. */
  async slashExec(command: string): Promise<void> {
    await this.attached();
    const sessionId = this.state.sessionId;
    if (!sessionId) return this.notice('No session attached.', 'warn');
    const r = await this.client.request('slash.exec', { session_id: sessionId, command });
    this.notice(r.output, r.handled ? 'info' : 'warn');
  }

  /**
   * Clears the screen (`screenReset`, set by the App) and the transcript, then attaches again for a
   * snapshot: the stored conversation changed other than by appending (`session.rewound`).
   */
  async reloadTranscript(notice?: string): Promise<void> {
    const sessionId = this.state.sessionId;
    if (!sessionId) return;
    this.screenReset?.();
    this.dispatch({ type: 'clear' });
    try {
      await this.client.attach(sessionId, { historyLimit: this.opts.historyLimit ?? 200 });
      if (notice) this.notice(notice);
    } catch (e) {
      this.notice(`Could not reload the transcript: ${errorText(e)}`, 'error');
    }
  }

  /** Clears the terminal (its scrollback too) before the transcript is printed again; set by the App. */
  screenReset: (() => void) | null = null;

  /**
   * Detaches from the session (it keeps running in the daemon). With `keepScreen` (`/detach`,
   * the TUI exits next) the state is left as it was, so a partial reply stays on the screen.
   */
  async detach(opts: { keepScreen?: boolean } = {}): Promise<void> {
    this.lastSession = this.exitSession;
    const sessionId = this.state.sessionId;
    if (sessionId) await this.client.detach(sessionId).catch(() => {});
    if (!opts.keepScreen) this.dispatch({ type: 'detached' });
  }

  /** Adds a line to the transcript. */
  notice(text: string, tone: 'info' | 'warn' | 'error' = 'info'): void {
    this.dispatch({ type: 'notice', text, tone });
  }

  /** Clears the screen's transcript (the session is kept); `/history` can print it again. */
  clear(): Promise<void> {
    return clearTranscript(this.historyHost);
  }

  private get historyHost(): HistoryHost {
    return {
      state: this.state,
      client: this.client,
      dispatch: (a) => this.dispatch(a),
      notice: (t, tone) => this.notice(t, tone),
    };
  }

  /** Stops listening to the client (does not close it). */
  dispose(): void {
    for (const u of this.unsubscribe.splice(0)) u();
    this.answers.dropAll();
    this.attachments.clear(); // a pasted image not sent: its temporary file goes
    this.store.dispose();
  }

  // ── internals ─────────────────────────────────────────────────────────────

  private dispatch(action: SessionAction): void {
    this.store.dispatch(action);
  }

  /** Opens a session, or first the model setup when the profile has no usable model. */
  private async openOrSetup(target: StartTarget, detachFirst = false): Promise<void> {
    try {
      await this.setup.openOrSetup(target, detachFirst);
    } catch (err) {
      this.notice(errorText(err), 'error');
    }
  }

  private async open(target: StartTarget): Promise<void> {
    const id = await this.resolveTarget(target);
    const previous = this.state.sessionId;
    if (previous && previous !== id) {
      this.answers.dropAll();
      await this.client.detach(previous).catch(() => {});
    }
    await this.client.attach(id, { historyLimit: this.opts.historyLimit ?? 200 });
  }

  /** The session id `target` names (a new session for `new`). */
  private resolveTarget(target: StartTarget): Promise<string> {
    return resolveStartTarget(this.client, this.opts.cwd, target, (text) => this.notice(text));
  }

  private async onServerRequest<M extends ServerRequestMethod>(
    method: M,
    params: ServerRequestParams<M>,
  ): Promise<ServerRequestResult<M>> {
    const p = params as unknown as Record<string, unknown>;
    const requestId = String(p.request_id ?? '');
    if (p.session_id !== this.state.sessionId) throw new DropServerRequest();
    const known = this.answers.replyFor(requestId);
    if (known instanceof DropServerRequest) throw known;
    if (known) return known as never;
    const view = requestView(String(p.kind), requestId, p);
    if (!view) throw new Error(`malformed ${method}`);
    const reply = this.answers.hold<M>(requestId);
    this.dispatch({ type: 'request', request: view });
    return reply;
  }

  private async flushOutbox(): Promise<void> {
    if (this.outbox.length === 0 || this.client.state !== 'connected') return;
    const pending = this.outbox;
    this.outbox = [];
    for (const text of pending) await this.submit(text);
  }
}

/** A short message for an error. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
