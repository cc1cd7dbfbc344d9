/**
 * The daemon's live sessions across profiles: loads a session on first
 * attach (holding its one-writer lock), creates new ones, unloads idle ones with no client, and
 * drains them on shutdown (marking `resume_pending` before waiting).
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { type Agent, openAgentSession, type OpenedSession } from '@hermes/core/agent';
import { onConfigWrite, type HermesConfig } from '@hermes/core/config';
import { DEFAULT_PROFILE } from '@hermes/core/home';
import { mcpStatusPayload } from '@hermes/core/mcp';
import { profileProcesses, type ProcessManager } from '@hermes/core/processes';
import { createModelClient, type ModelClient, type ReasoningEffort } from '@hermes/core/model';
import {
  wireEvent,
  type ApprovalModeName,
  type EventPayload,
  type SessionInfo,
  type WireEvent,
  RpcErrorCode,
} from '@hermes/core/protocol';
import {
  SessionLockedError,
  storedCostOf,
  type SessionLock,
  previewText,
  type SessionRecord,
} from '@hermes/core/state';
import { RpcMethodError, type Connection } from '../rpc/types.js';
import { drainTurns } from './drain.js';
import {
  LiveSession,
  type AgentHooks,
  type LiveSessionOptions,
  type SessionPersistence,
} from './live-session.js';
import type { ProfileChange } from './profile-config.js';
import { listProfileNames, ProfileRuntime } from './profile-runtime.js';
import { RingBudget } from './replay-ring.js';
import { SessionConfigFollower, type PinnedProvider } from './session-config.js';
import { takeSessionLock } from './session-lock-takeover.js';

/** Idle live sessions with no client are unloaded after this long, ms (6 h). */
export const IDLE_UNLOAD_MS = 6 * 60 * 60 * 1000;

/**
 * How often the loaded profiles' config.yaml and `.env` are stat'ed between uses, ms, so clients
 * learn of an edit (`config.changed`) while no session is busy. Session opens and turn starts
 * check anyway.
 */
export const CONFIG_POLL_MS = 2_000;

/** Options of the registry. */
export interface SessionRegistryOptions {
  root: string;
  epoch: string;
  /** Replaces the model client of every agent (tests). */
  modelClientFactory?: (profile: ProfileRuntime, model?: string) => ModelClient;
  idleUnloadMs?: number;
  /** A turn silent this long during a drain is interrupted, ms (default `DRAIN_STALL_MS`, drain.ts). */
  drainStallMs?: number;
  log?: (line: string) => void;
  /** Sends an event to every client (`DaemonContext.broadcast`): `config.changed`, `mcp.status`. */
  broadcast?: (event: WireEvent) => void;
  /** Interval of the config-file check, ms (default `CONFIG_POLL_MS`; 0: only on use). */
  configPollMs?: number;
  /** The daemon's background processes, given to every session's tools (narrowed to its profile). */
  processes?: ProcessManager;
  /** Every visible change of a live session (`LiveSessionOptions.onChange`): the status feed. */
  onSessionChange?: (s: LiveSession, ev?: WireEvent) => void;
  /** A live session was unloaded. */
  onSessionGone?: (s: LiveSession) => void;
  /** A live session showed an approval or clarify request (`LiveSessionOptions.onRequest`). */
  onSessionRequest?: LiveSessionOptions['onRequest'];
  /** More `SessionInfo.notices` of a session, read whenever it is shown (e.g. commands a crash left). */
  startNotices?: (profile: string, id: string) => readonly string[];
}

interface Entry {
  live: LiveSession;
  lock: SessionLock;
  /** Locks of the child sessions compression moved the live session to. */
  childLocks: SessionLock[];
  /** Brings the session onto its profile's config as it changes (session-config.ts). */
  follower: SessionConfigFollower;
  /** The session's agent, once its first turn built it. */
  agent?: Pick<Agent, 'approvals'>;
}

const key = (profile: string, id: string): string => `${profile}\u0000${id}`;

/** `config` with the session's pinned provider (endpoint and key variable) in place of its own. */
function withProvider(config: HermesConfig, pinned: PinnedProvider): HermesConfig {
  const { base_url: _url, api_key_env: _key, ...model } = config.model;
  return { ...config, model: { ...model, ...pinned } };
}

/** All live sessions of the daemon. */
export class SessionRegistry {
  private readonly profiles = new Map<string, ProfileRuntime>();
  private readonly live = new Map<string, Entry>();
  /** key(profile, old id) → newer id, after compression continued a session in a child. */
  private readonly aliases = new Map<string, string>();
  private readonly budget = new RingBudget();
  private draining = false;
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly configTimer: NodeJS.Timeout | undefined;
  private readonly stopWriteListener: () => void;

  constructor(private readonly opts: SessionRegistryOptions) {
    // this process's own config.yaml writes (an `always` answer, config.set) are not "outside"
    this.stopWriteListener = onConfigWrite((file, key, phase) => {
      for (const p of this.profiles.values()) if (p.home.configFile === file) p.ownWrite(key, phase);
    });
    const every = Math.min(opts.idleUnloadMs ?? IDLE_UNLOAD_MS, 60_000);
    this.sweepTimer = setInterval(() => this.unloadIdle(), every);
    this.sweepTimer.unref();
    const poll = opts.configPollMs ?? CONFIG_POLL_MS;
    if (poll > 0) {
      this.configTimer = setInterval(() => {
        for (const p of this.profiles.values()) p.refresh();
      }, poll);
      this.configTimer.unref();
    }
  }

  /** True once shutdown began: no new prompts. */
  /** The daemon's background processes (absent in tests that run without them). */
  get processManager(): ProcessManager | undefined {
    return this.opts.processes;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /**
   * The profiles known to be unusable now (their state.db is damaged), with the error their
   * requests get. Only loaded profiles are looked at (start-up recovery loads the damaged ones);
   * one whose file was moved aside or restored since is re-checked and leaves the list.
   */
  unavailableProfiles(): Array<{ profile: string; error: string }> {
    const out: Array<{ profile: string; error: string }> = [];
    for (const p of this.profiles.values()) {
      const error = p.unavailable();
      if (error) out.push({ profile: p.name, error });
    }
    return out.sort((a, b) => a.profile.localeCompare(b.profile));
  }

  /** Names of every profile under the root. */
  profileNames(): string[] {
    return listProfileNames(this.opts.root);
  }

  /**
   * The runtime of a profile, loaded on first use. A plain lookup does not re-check its files:
   * config.yaml and `.env` are re-read when they changed at the documented points only — a
   * session opening (`get`, `create`), a turn starting (session-config.ts) and the poll
   * (`configPollMs`); `ProfileRuntime.reload()` after the daemon's own writes.
   * @throws RpcMethodError(ProfileNotFound) for a profile that does not exist.
   */
  profile(name: string = DEFAULT_PROFILE): ProfileRuntime {
    let p = this.profiles.get(name);
    if (p && !p.isCurrent() && !this.hasLiveSessions(name)) {
      // deleted, renamed or re-created since it was loaded: never hand out its old config,
      // secrets or database to whatever now carries the name
      p.close();
      this.profiles.delete(name);
      p = undefined;
    }
    if (!p) {
      p = new ProfileRuntime(
        this.opts.root,
        name,
        (line) => this.opts.log?.(line),
        (rt, change) => this.configChanged(rt, change),
        (rt, status) => {
          const payload = mcpStatusPayload(rt.name, status); // restarts and failures reach every client
          if (payload)
            this.opts.broadcast?.(wireEvent('mcp.status', '*', 0, payload, Date.now(), this.opts.log));
        },
      );
      if (name !== DEFAULT_PROFILE && !existsSync(p.home.dir)) {
        throw new RpcMethodError(
          RpcErrorCode.ProfileNotFound,
          `profile "${name}" does not exist (hermes profile create ${name})`,
        );
      }
      this.profiles.set(name, p);
      try {
        p.warmUp((line) => this.opts.log?.(line)); // start its MCP servers early
      } catch (err) {
        this.opts.log?.(`profile ${name}: ${(err as Error).message}`);
      }
    }
    return p;
  }

  /**
   * A profile's config.yaml or `.env` changed on disk (or broke): every client gets
   * `config.changed` (its profile, the files, the model now configured, the error), and the idle
   * sessions of the profile show their new model (busy ones at their next turn).
   */
  private configChanged(profile: ProfileRuntime, change: ProfileChange): void {
    let model: string | undefined;
    try {
      model = profile.config.model.default || undefined;
    } catch {
      model = undefined;
    }
    const { problem } = change;
    const payload: EventPayload<'config.changed'> = {
      profile: profile.name,
      files: change.files,
      ...(model ? { model } : {}),
      ...(problem
        ? {
            error: {
              file: problem.file,
              message: problem.message,
              ...(problem.key ? { key: problem.key } : {}),
            },
          }
        : {}),
      ...(change.loosened ? { loosened: change.loosened } : {}),
    };
    // built outside the try: a payload that breaks its schema fails the test that caused it
    const event = wireEvent('config.changed', '*', 0, payload, Date.now(), this.opts.log);
    try {
      this.opts.broadcast?.(event);
    } catch (err) {
      this.opts.log?.(`config.changed broadcast failed: ${(err as Error).message}`);
    }
    for (const e of this.live.values()) {
      if (e.live.profile !== profile.name) continue;
      e.follower.restrict(e.live.id); // stricter approval settings reach a running turn at once
      e.follower.sync(e.live, !e.live.busy);
    }
  }

  /**
   * True when `conn` is attached to a live session of `profile` and answers approvals there
   * (`capabilities.approvals`): the clients that may loosen approval settings (config-set-handler.ts).
   */
  isAttachedApprover(profile: string, conn: Connection): boolean {
    if (!conn.capabilities.approvals) return false;
    for (const e of this.live.values())
      if (e.live.profile === profile && e.live.clients.has(conn)) return true;
    return false;
  }

  private hasLiveSessions(profile: string): boolean {
    for (const e of this.live.values()) if (e.live.profile === profile) return true;
    return false;
  }

  /** Counts for `gateway status`. */
  stats(): { sessions_live: number; clients: number; busy: number } {
    let clients = 0;
    let busy = 0;
    for (const e of this.live.values()) {
      clients += e.live.clients.size;
      if (e.live.busy) busy++;
    }
    return { sessions_live: this.live.size, clients, busy };
  }

  /** The newest id of a session: follows compression aliases (old id → child id). */
  currentId(profile: string, id: string): string {
    let current = id;
    for (let hops = 0; hops < 1000; hops++) {
      const next = this.aliases.get(key(profile, current));
      if (next === undefined) break;
      current = next;
    }
    return current;
  }

  /** The live session if loaded (by its id or an id it had before compression), else undefined. */
  peek(profile: string, id: string): LiveSession | undefined {
    return this.live.get(key(profile, this.currentId(profile, id)))?.live;
  }

  /**
   * The `session` approvals of a live session (`/permissions`); undefined while the session is
   * not loaded or has not run a turn (it has none then).
   */
  approvals(profile: string, id: string): Agent['approvals'] | undefined {
    return this.live.get(key(profile, this.currentId(profile, id)))?.agent?.approvals;
  }

  /**
   * Returns the live session, loading it from the profile's database on first use.
   * @throws RpcMethodError SessionNotFound / SessionLocked.
   */
  get(profileName: string, requestedId: string): LiveSession {
    const sessionId = this.currentId(profileName, requestedId);
    const existing = this.live.get(key(profileName, sessionId));
    if (existing) return existing.live;
    const profile = this.profile(profileName);
    profile.refresh(); // a session opens: on the profile's current config
    const record = profile.db.getSession(sessionId);
    if (!record) {
      throw new RpcMethodError(
        RpcErrorCode.SessionNotFound,
        `no session "${sessionId}" in profile "${profileName}"`,
      );
    }
    return this.load(profile, record.id, {}, (hooks) =>
      openAgentSession(this.openOptions(profile, { kind: 'id', id: record.id }, hooks)),
    );
  }

  /** Creates a new session in a profile and makes it live. */
  create(
    profileName: string,
    o: { cwd?: string; title?: string; model?: string; source?: string },
  ): LiveSession {
    if (this.draining) throw new RpcMethodError(RpcErrorCode.ShuttingDown, 'the daemon is shutting down');
    const profile = this.profile(profileName);
    profile.refresh(); // a session opens: on the profile's current config
    const builtWith = profile.configVersion;
    let target: AgentHooks | undefined;
    const forward: AgentHooks = {
      onEvent: (e) => target?.onEvent(e),
      onApproval: (req, signal, pending) =>
        target ? target.onApproval(req, signal, pending) : Promise.resolve('deny'),
      onClarify: (q, signal) =>
        target ? target.onClarify(q, signal) : Promise.reject(new Error('no session')),
      editorFiles: {
        read: (path) => target?.editorFiles.read(path) ?? Promise.resolve(undefined),
        write: (path, content) => target?.editorFiles.write(path, content) ?? Promise.resolve(false),
      },
    };
    const opened = openAgentSession({
      ...this.openOptions(profile, { kind: 'new', ...(o.title ? { title: o.title } : {}) }, forward),
      cwd: o.cwd ?? process.env.HOME ?? process.cwd(),
      ...(o.source ? { source: o.source } : {}),
      ...(o.model ? { model: o.model } : {}),
    });
    const pinned = o.model ? { pinnedModel: o.model } : {};
    const notices = opened.notices.length > 0 ? { notices: opened.notices } : {};
    return this.load(profile, opened.session.id, { ...pinned, builtWith, ...notices }, (hooks) => {
      target = hooks;
      return opened;
    });
  }

  private openOptions(
    profile: ProfileRuntime,
    select: Parameters<typeof openAgentSession>[0]['select'],
    hooks: AgentHooks,
  ) {
    return {
      home: profile.home,
      source: 'tui',
      select,
      cwd: process.cwd(),
      db: profile.db,
      store: profile.writer,
      config: profile.config,
      secrets: profile.secrets,
      // resolved again at every turn: MCP servers that get ready later (or go by /mcp reload) show up
      toolSource: () => profile.tools(),
      ...(this.opts.modelClientFactory ? { modelClient: this.opts.modelClientFactory(profile) } : {}),
      onEvent: hooks.onEvent,
      onApproval: hooks.onApproval,
      onClarify: hooks.onClarify,
      editorFiles: hooks.editorFiles,
      ...(this.opts.processes ? { processes: profileProcesses(this.opts.processes, profile.home) } : {}),
    };
  }

  /** A client for the profile's current config (the test factory when there is one). */
  private modelClient(
    profile: ProfileRuntime,
    model: string | undefined,
    provider?: PinnedProvider,
  ): ModelClient {
    if (this.opts.modelClientFactory) return this.opts.modelClientFactory(profile, model);
    return createModelClient({
      config: provider ? withProvider(profile.config, provider) : profile.config,
      secrets: profile.secrets,
      envFile: profile.home.envFile,
      ...(model ? { modelOverride: model } : {}),
    });
  }

  /**
   * @param how `pinnedModel`: the session keeps this model whatever config says; `builtWith`: the
   *   profile's config version the agent `open` returns was built with (default: when it runs).
   */
  private load(
    profile: ProfileRuntime,
    id: string,
    how: { pinnedModel?: string; builtWith?: number; notices?: string[] },
    open: (hooks: AgentHooks) => OpenedSession,
  ): LiveSession {
    let lock: SessionLock;
    try {
      // the lock error adds "(pid N)" itself; a holder killed by kill -9 is taken over at once
      lock = takeSessionLock(profile.home, id, 'tui-gateway');
    } catch (err) {
      if (err instanceof SessionLockedError)
        throw new RpcMethodError(RpcErrorCode.SessionLocked, err.message);
      throw err;
    }
    const follower = new SessionConfigFollower({
      profile,
      store: profile.db,
      ...(how.pinnedModel ? { pinnedModel: how.pinnedModel } : {}),
      modelClient: (model, provider) => this.modelClient(profile, model, provider),
      log: (line) => this.opts.log?.(line),
    });
    const startNotices = this.opts.startNotices;
    try {
      let live: LiveSession | undefined = undefined;
      live = new LiveSession({
        id,
        profile: profile.name,
        store: liveStore(profile),
        // read at every question: follows `approvals.timeout` as config.yaml changes
        get approvalTimeoutS() {
          return profile.config.approvals.timeout;
        },
        budget: this.budget,
        epoch: this.opts.epoch,
        onIdChange: (s, oldId) => this.moved(profile, s, oldId),
        log: (line) => this.opts.log?.(line),
        approvalMode: () => follower.approvalMode(),
        ...(this.opts.onSessionChange ? { onChange: this.opts.onSessionChange } : {}),
        ...(this.opts.onSessionRequest ? { onRequest: this.opts.onSessionRequest } : {}),
        // read whenever the session is shown: notices added after it was loaded show up too
        get notices() {
          return [...(how.notices ?? []), ...(startNotices?.(profile.name, id) ?? [])];
        },
        // called on the session's first turn, not here (see LiveSession `agent`)
        createAgent: (hooks) => {
          const builtWith = how.builtWith ?? profile.configVersion;
          const { agent } = open(hooks);
          if (entry) entry.agent = agent;
          return follower.wrap(agent, builtWith, () => live);
        },
      });
      const entry: Entry = { live, lock, childLocks: [], follower };
      this.live.set(key(profile.name, id), entry);
      return live;
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /**
   * Switches a session to `model` from its next turn (`/model ID`), and with `provider` to that
   * provider (kept when config.yaml later names another), loading it if needed; an idle one stores
   * and shows it (`session.info`) at once.
   * @throws RpcMethodError SessionNotFound / SessionLocked.
   */
  pinModel(profileName: string, id: string, model: string, provider?: PinnedProvider): LiveSession {
    const live = this.get(profileName, id);
    const e = this.live.get(key(profileName, live.id))!;
    e.follower.pin(model, provider);
    e.follower.sync(live, !live.busy);
    return live;
  }

  /**
   * The session's reasoning effort, after setting it when `set` is given (`null`: back to the
   * profile's `model.reasoning_effort`); loads the session if needed. Applies from its next turn.
   * @throws RpcMethodError SessionNotFound / SessionLocked.
   */
  reasoningEffort(
    profileName: string,
    id: string,
    set?: ReasoningEffort | null,
  ): { effort: ReasoningEffort | undefined; own: boolean } {
    const live = this.get(profileName, id);
    const e = this.live.get(key(profileName, live.id))!;
    if (set !== undefined) {
      e.follower.setReasoningEffort(set ?? undefined);
      this.opts.log?.(`session ${live.id}: reasoning effort ${set ?? 'of the profile'}`);
    }
    return e.follower.reasoningEffort();
  }

  /**
   * Sets the session's own approval mode (undefined: follow the profile's `approvals.mode`),
   * loading it if needed; its clients get `session.info` at once.
   * @throws RpcMethodError SessionNotFound / SessionLocked.
   */
  setApprovalMode(
    profileName: string,
    id: string,
    mode: ApprovalModeName | undefined,
  ): { mode: ApprovalModeName; own: boolean } {
    const live = this.get(profileName, id);
    const e = this.live.get(key(profileName, live.id))!;
    e.follower.setApprovalMode(mode, live.id);
    this.opts.log?.(`session ${live.id}: approval mode ${mode ?? 'of the profile'}`);
    live.emit('session.info', { session: live.info() });
    return e.follower.approvalMode();
  }

  /** Re-keys a live session whose id changed (compression) and keeps its old id as an alias. */
  private moved(profile: ProfileRuntime, live: LiveSession, oldId: string): void {
    const entry = this.live.get(key(profile.name, oldId));
    if (!entry) return;
    this.live.delete(key(profile.name, oldId));
    this.live.set(key(profile.name, live.id), entry);
    this.aliases.set(key(profile.name, oldId), live.id);
    try {
      entry.childLocks.push(takeSessionLock(profile.home, live.id, 'tui-gateway'));
    } catch (err) {
      this.opts.log?.(
        `session ${live.id}: could not lock the compressed continuation: ${(err as Error).message}`,
      );
    }
  }

  /** Lists a profile's sessions, newest first, marking the live ones. */
  list(profileName: string, o: { limit?: number; query?: string; source?: string }): SessionInfo[] {
    const profile = this.profile(profileName);
    const rows = profile.db.listSessions({
      limit: o.limit ?? 50,
      ...(o.query ? { query: o.query } : {}),
      ...(o.source ? { source: o.source } : {}),
    });
    // the first user prompts of all rows in one query
    const firsts = profile.db.firstPrompts(rows.map((r) => r.id));
    return rows.map((r) => this.describe(profile, r, firsts));
  }

  /**
   * SessionInfo of a stored session (live details when loaded).
   * @param firsts first user prompts by session id, when the caller fetched them for many rows
   *   (`list`); otherwise this session's is looked up.
   */
  describe(profile: ProfileRuntime, r: SessionRecord, firsts?: ReadonlyMap<string, string>): SessionInfo {
    // the first user prompt, for pickers (also of live and long sessions)
    const first = (firsts ?? profile.db.firstPrompts([r.id])).get(r.id);
    const preview = first ? { preview: previewText(first, 120) } : {};
    const live = this.live.get(key(profile.name, r.id))?.live; // not through aliases
    if (live) return { ...live.info(), ...preview };
    return {
      id: r.id,
      profile: profile.name,
      title: r.title,
      source: r.source,
      model: r.model,
      cwd: r.cwd,
      started_at: r.started_at,
      ended_at: r.ended_at,
      message_count: r.message_count,
      state: r.state,
      parent_session_id: r.parent_session_id,
      live: false,
      busy: false,
      clients: 0,
      ...preview,
    };
  }

  /** Unloads a live session (it must be idle); its lock is released. */
  unload(profile: string, id: string): void {
    const k = key(profile, this.currentId(profile, id));
    const e = this.live.get(k);
    if (!e) return;
    this.live.delete(k);
    e.live.dispose();
    this.opts.onSessionGone?.(e.live);
    e.lock.release();
    for (const l of e.childLocks) l.release();
  }

  /** Unloads sessions idle with no client for longer than the idle limit. */
  unloadIdle(now = Date.now()): number {
    const limit = this.opts.idleUnloadMs ?? IDLE_UNLOAD_MS;
    let n = 0;
    for (const e of [...this.live.values()]) {
      if (!e.live.busy && e.live.clients.size === 0 && now - e.live.lastActivity >= limit) {
        this.unload(e.live.profile, e.live.id);
        n++;
      }
    }
    return n;
  }

  /** Stores a session's state during a drain; a failure (disk full) is logged, the drain goes on. */
  private storeState(live: LiveSession, state: string): void {
    try {
      this.profile(live.profile).db.setSessionState(live.id, state);
    } catch (err) {
      this.opts.log?.(`shutdown: session ${live.id}: cannot store state ${state}: ${(err as Error).message}`);
    }
  }

  /**
   * Graceful shutdown: refuse new prompts, mark running
   * sessions `resume_pending` before waiting, hold the queued prompts (kept stored, shown held
   * after the restart), let turns that make progress finish within `timeoutMs` and interrupt the
   * stuck ones at once and the rest at the deadline (drain.ts), and write
   * `<root>/.clean_shutdown` only if no turn had to be interrupted.
   * @returns whether the drain finished cleanly.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    const entries = [...this.live.values()];
    const busy = entries.filter((e) => e.live.busy);
    for (const e of busy) this.storeState(e.live, 'resume_pending');
    for (const e of entries) e.live.holdQueue();
    const { clean, interrupted } = await drainTurns(
      busy.map((e) => e.live),
      {
        timeoutMs,
        ...(this.opts.drainStallMs !== undefined ? { stallMs: this.opts.drainStallMs } : {}),
        log: (line) => this.opts.log?.(line),
      },
    );
    // interrupted sessions stay `resume_pending`: the next start marks them interrupted (and
    // continues them with gateway.auto_continue); the turns that ended by themselves are idle
    for (const e of busy) {
      if (interrupted.includes(e.live.id) || e.live.busy) continue;
      this.storeState(e.live, 'idle');
    }
    for (const e of [...this.live.values()]) this.unload(e.live.profile, e.live.id);
    for (const p of this.profiles.values()) p.close();
    clearInterval(this.sweepTimer);
    clearInterval(this.configTimer);
    this.stopWriteListener();
    const marker = `${this.opts.root}/.clean_shutdown`;
    if (clean) writeFileSync(marker, `${new Date().toISOString()}\n`);
    else rmSync(marker, { force: true });
    return clean;
  }
}

/**
 * A live session's store: reads from the profile's SessionDB, writes through its never-blocking
 * writer (profile-writer.ts).
 */
function liveStore(profile: ProfileRuntime): SessionPersistence {
  const w = profile.writer;
  return {
    getSession: (id) => profile.db.getSession(id),
    getMessages: (id, opts) => profile.db.getMessages(id, opts),
    queuedPrompts: (id) => profile.db.queuedPrompts(id),
    setSessionState: (id, state) => w.setSessionState(id, state),
    moveQueuedPrompts: (from, to) => w.moveQueuedPrompts(from, to),
    queuePrompt: (id, p) => w.queuePrompt(id, p),
    unqueuePrompt: (promptId) => w.unqueuePrompt(promptId),
    storedCost: (id) => {
      const record = profile.db.getSession(id);
      const cost = record && storedCostOf(profile.db.modelCalls.sessionTotals(id), record);
      return (
        cost && {
          ...(cost.cost_usd !== undefined ? { session_cost_usd: cost.cost_usd } : {}),
          session_cost_status: cost.cost_status,
        }
      );
    },
  };
}
