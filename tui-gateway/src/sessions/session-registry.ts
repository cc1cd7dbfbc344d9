/**
 * The daemon's live sessions across profiles: loads a session on first
 * attach (holding its one-writer lock), creates new ones, unloads idle ones with no client, and
 * drains them on shutdown (marking `resume_pending` before waiting).
 *
 * Its parts: the loaded profiles (loaded-profiles.ts), how a session's agent is opened
 * (session-open.ts), the sessions' side of a drain (drain.ts).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { type Agent, openAgentSession, type OpenedSession } from '@hermes/core/agent';
import { modeAsksLess } from '@hermes/core/config';
import { DEFAULT_PROFILE } from '@hermes/core/home';
import type { ProcessManager } from '@hermes/core/processes';
import type { ModelClient, ReasoningEffort } from '@hermes/core/model';
import { type ApprovalModeName, type SessionInfo, type WireEvent, RpcErrorCode } from '@hermes/core/protocol';
import { SessionLockedError, type SessionLock, previewText, type SessionRecord } from '@hermes/core/state';
import { RpcMethodError, type Connection } from '../rpc/types.js';
import { drainSessions } from './drain.js';
import { LiveSession, type AgentHooks, type LiveSessionOptions } from './live-session.js';
import { LoadedProfiles } from './loaded-profiles.js';
import type { ProfileRuntime } from './profile-runtime.js';
import { RingBudget } from './replay-ring.js';
import { SessionConfigFollower, type PinnedProvider } from './session-config.js';
import { storedSessionInfo } from './session-view.js';
import { agentOpenOptions, forwardingHooks, liveStore, modelClientFor } from './session-open.js';
import { takeSessionLock } from './session-lock-takeover.js';

/** Idle live sessions with no client are unloaded after this long, ms (6 h). */
export const IDLE_UNLOAD_MS = 6 * 60 * 60 * 1000;

export { CONFIG_POLL_MS } from './loaded-profiles.js';

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

/** All live sessions of the daemon. */
export class SessionRegistry {
  private readonly profiles: LoadedProfiles;
  private readonly live = new Map<string, Entry>();
  /** key(profile, old id) → newer id, after compression continued a session in a child. */
  private readonly aliases = new Map<string, string>();
  private readonly budget = new RingBudget();
  private draining = false;
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(private readonly opts: SessionRegistryOptions) {
    this.profiles = new LoadedProfiles({
      root: opts.root,
      log: opts.log,
      broadcast: opts.broadcast,
      configPollMs: opts.configPollMs,
      hasLiveSessions: (name) => this.hasLiveSessions(name),
      onConfigChange: (profile) => {
        for (const e of this.live.values()) {
          if (e.live.profile !== profile.name) continue;
          e.follower.restrict(e.live.id); // stricter approval settings reach a running turn at once
          e.follower.sync(e.live, !e.live.busy);
        }
      },
    });
    const every = Math.min(opts.idleUnloadMs ?? IDLE_UNLOAD_MS, 60_000);
    this.sweepTimer = setInterval(() => this.unloadIdle(), every);
    this.sweepTimer.unref();
  }

  /** The daemon's background processes (absent in tests that run without them). */
  get processManager(): ProcessManager | undefined {
    return this.opts.processes;
  }

  /** True once shutdown began: no new prompts. */
  get isDraining(): boolean {
    return this.draining;
  }

  /**
   * The profiles known to be unusable now (their state.db is damaged), with the error their
   * requests get. Only loaded profiles are looked at (start-up recovery loads the damaged ones);
   * one whose file was moved aside or restored since is re-checked and leaves the list.
   */
  unavailableProfiles(): Array<{ profile: string; error: string }> {
    return this.profiles.unavailable();
  }

  /** Names of every profile under the root. */
  profileNames(): string[] {
    return this.profiles.names();
  }

  /**
   * The runtime of a profile, loaded on first use. A plain lookup does not re-check its files:
   * config.yaml and `.env` are re-read when they changed at the documented points only — a
   * session opening (`get`, `create`), a turn starting (session-config.ts) and the poll
   * (`configPollMs`); `ProfileRuntime.reload()` after the daemon's own writes.
   * @throws RpcMethodError(ProfileNotFound) for a profile that does not exist.
   */
  profile(name: string = DEFAULT_PROFILE): ProfileRuntime {
    return this.profiles.get(name);
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
    const forward = forwardingHooks();
    const opened = openAgentSession({
      ...this.openOptions(profile, { kind: 'new', ...(o.title ? { title: o.title } : {}) }, forward.hooks),
      cwd: o.cwd ?? process.env.HOME ?? process.cwd(),
      ...(o.source ? { source: o.source } : {}),
      ...(o.model ? { model: o.model } : {}),
    });
    const pinned = o.model ? { pinnedModel: o.model } : {};
    const notices = opened.notices.length > 0 ? { notices: opened.notices } : {};
    return this.load(profile, opened.session.id, { ...pinned, builtWith, ...notices }, (hooks) => {
      forward.connect(hooks);
      return opened;
    });
  }

  private openOptions(
    profile: ProfileRuntime,
    select: Parameters<typeof openAgentSession>[0]['select'],
    hooks: AgentHooks,
  ) {
    return agentOpenOptions(profile, select, hooks, this.opts);
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
      modelClient: (model, provider) =>
        modelClientFor(profile, model, provider, this.opts.modelClientFactory),
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
   * loading it if needed; its clients get `session.info` at once. A mode that asks less than the
   * one in effect is set only for `by` attached to that session with `capabilities.approvals`
   * (as config.set's loosenings): any other connection gets -32009 and nothing changes.
   * @throws RpcMethodError SessionNotFound / SessionLocked / NotPermitted.
   */
  setApprovalMode(
    profileName: string,
    id: string,
    mode: ApprovalModeName | undefined,
    by?: Connection,
  ): { mode: ApprovalModeName; own: boolean } {
    const live = this.get(profileName, id);
    const e = this.live.get(key(profileName, live.id))!;
    const next = mode ?? e.follower.profileApprovalMode();
    const current = e.follower.approvalMode().mode;
    if (by && modeAsksLess(next, current) && !(by.capabilities.approvals && live.clients.has(by))) {
      throw new RpcMethodError(
        RpcErrorCode.NotPermitted,
        `session.approvals.set: ${current} → ${next} loosens approvals.mode; a session's approval mode can be ` +
          'loosened only by a client attached to that session that answers approvals',
        { keys: ['approvals.mode'] },
      );
    }
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
    return { ...storedSessionInfo(profile.name, r), ...preview };
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
    const clean = await drainSessions(
      [...this.live.values()].map((e) => e.live),
      (live, state) => this.storeState(live, state),
      {
        timeoutMs,
        ...(this.opts.drainStallMs !== undefined ? { stallMs: this.opts.drainStallMs } : {}),
        log: (line) => this.opts.log?.(line),
      },
    );
    for (const e of [...this.live.values()]) this.unload(e.live.profile, e.live.id);
    this.profiles.close();
    clearInterval(this.sweepTimer);
    const marker = `${this.opts.root}/.clean_shutdown`;
    if (clean) writeFileSync(marker, `${new Date().toISOString()}\n`);
    else rmSync(marker, { force: true });
    return clean;
  }
}
