/**
 * The daemon's adapter host: starts the enabled platform adapters of
 * every served profile, wires each to a message pipeline (core/src/messaging/pipeline.ts) whose
 * agents are the daemon's live sessions, reports each platform's state for `gateway.status`,
 * and stops them on shutdown.
 *
 * - Start, per profile: prune the routing index, load hooks, fire `gateway:startup`; per enabled
 *   platform: registry `createAdapter` (load → requirements → config → factory), then `connect`
 *   with a timeout. A load, requirements or config failure leaves that platform `failed` with a
 *   one-line reason; the other platforms come up anyway.
 * - Reconnects: every failed `connect` (the first one too) is followed by `disconnect` so nothing
 *   leaks, then the platform is `backing_off` and tried again after the schedule of
 *   reconnect.ts (1 s doubling to 60 s, ±20 %). An adapter that loses an established connection
 *   reports it with `emitFatal`; the host disconnects it and reconnects it the same way. The
 *   count of failures restarts only after a connection stayed up `STABLE_MS`, so a server that
 *   accepts and drops at once is not hammered. An error marked `permanent` (reconnect.ts) ends
 *   the retries: `failed`.
 * - Each platform's delivery ledger and replay window live in the profile's state.db. Once the
 *   adapter is connected, the ledger sends the replies a previous daemon left unconfirmed, and
 *   the messages it left open get their outcome (core/src/messaging/pipeline-recovery.ts).
 * - Shutdown (wrapped around the session layer's drain): stop taking platform messages, tell
 *   chats with a running turn that the agent restarts (adapters still connected), let the
 *   session layer drain (it marks `resume_pending` before waiting), then disconnect adapters.
 *
 * `withPlatformAdapters` wraps the daemon hooks of compose.ts (one call there). How one platform is
 * wired (context, backend, ledger, pipeline, handlers): wire-platform.ts.
 */
import { type HermesConfig, lookupSecret } from '@hermes/core/config';
import {
  ChatSessionIndex,
  HookRegistry,
  PairingStore,
  platformRegistry,
  recoverMessages,
  setLiveAdapter,
  type ButtonOutcome,
  type ButtonPress,
  type MessagePipeline,
  type PlatformAdapter,
  type PlatformRegistry,
} from '@hermes/core/messaging';
import type { DaemonContext, DaemonOptions } from '../lifecycle/daemon.js';
import type { Logger } from '../lifecycle/logger.js';
import { listProfileNames, type ProfileRuntime } from '../sessions/profile-runtime.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { registerBundledPlatforms } from './bundled.js';
import type { LiveSessionBackend } from './live-backend.js';
import { platformContext, wirePlatform, type ProfileShared } from './wire-platform.js';
import {
  backoffDelayMs,
  isPermanentError,
  systemClock,
  type BackoffOptions,
  type HostClock,
} from './reconnect.js';

/** Longest a platform's `connect` may take before it counts as failed, ms. */
export const CONNECT_TIMEOUT_MS = 30_000;

/** A connection that stayed up this long resets the count of failures, ms. */
export const STABLE_MS = 60_000;

/** State of one platform in one profile, as `gateway.status` reports it. */
export interface PlatformStatus {
  profile: string;
  platform: string;
  /**
   * `connecting` (an attempt runs), `connected`, `backing_off` (waiting until `retry_at` for
   * attempt `attempt`), `failed` (for good: `error`), `stopped`.
   */
  state: 'connecting' | 'connected' | 'backing_off' | 'failed' | 'stopped';
  /** Why it failed for good (one line, no secrets). */
  error?: string;
  /** The connect attempt running or waited for, counted from the last stable connection (1 = first). */
  attempt?: number;
  /** ISO time of the next attempt (`backing_off`). */
  retry_at?: string;
  /** The error of the last failed attempt or of the lost connection (one line). */
  last_error?: string;
  /** ISO time of the last state change. */
  since: string;
}

interface Running {
  status: PlatformStatus;
  adapter?: PlatformAdapter;
  pipeline?: MessagePipeline;
  backend?: LiveSessionBackend;
  /** Consecutive failures (failed attempts and lost connections) since the last stable connection. */
  failures: number;
  /** When the current connection came up, epoch ms. */
  connectedAt?: number;
  /** The profile's routing index of chats to sessions. */
  store?: ChatSessionIndex;
  /** The pending retry. */
  timer?: unknown;
  /** The ledger was started and open messages recovered (once, on the first connection). */
  recovered?: boolean;
  /** Resolves when the running connect attempt ended. */
  attempting?: Promise<void>;
  name: string;
}

/** Options of the host. */
export interface AdapterHostOptions {
  root: string;
  sessions: SessionRegistry;
  log: Pick<Logger, 'info' | 'warn' | 'error' | 'addSecret'>;
  registry?: PlatformRegistry;
  connectTimeoutMs?: number;
  /** Profiles to serve (default: every profile of the root). */
  profiles?: () => string[];
  /** Timers of the reconnect waits (default: the real clock). */
  clock?: HostClock;
  /** The reconnect schedule (defaults in reconnect.ts). */
  backoff?: BackoffOptions;
  /**
   * Takes a pressed button first when it belongs to a question asked outside the platform's own
   * conversations (an escalated approval, hub/escalation.ts); undefined: the pipeline takes it.
   * `mayApprove`: the platform's access rules admit the presser and let them answer approvals.
   */
  buttons?: (
    profile: string,
    platform: string,
    press: ButtonPress,
    mayApprove: boolean,
  ) => ButtonOutcome | undefined;
}

/** Extra fields of a state change. */
type StateDetail = Pick<PlatformStatus, 'error' | 'attempt' | 'retry_at' | 'last_error'>;

/** Runs the platform adapters of a daemon. */
export class AdapterHost {
  private readonly running = new Map<string, Running>();
  private stopping = false;

  constructor(private readonly opts: AdapterHostOptions) {}

  private get registry(): PlatformRegistry {
    return this.opts.registry ?? platformRegistry;
  }

  /**
   * A connected platform of a profile as a handoff needs it: its adapter, the session key of a
   * chat, and the profile's routing index. Undefined while it is not connected.
   */
  chatRoute(
    profile: string,
    platform: string,
  ): { adapter: PlatformAdapter; keyOf: MessagePipeline['keyOf']; store: ChatSessionIndex } | undefined {
    const r = this.running.get(`${profile}\u0000${platform}`);
    if (!r?.adapter || !r.pipeline || !r.store || r.status.state !== 'connected') return undefined;
    const pipeline = r.pipeline;
    return { adapter: r.adapter, keyOf: (source, cfg) => pipeline.keyOf(source, cfg), store: r.store };
  }

  /** Each platform's state, sorted by profile and name. */
  status(): PlatformStatus[] {
    return [...this.running.values()]
      .map((r) => ({ ...r.status }))
      .sort((a, b) => a.profile.localeCompare(b.profile) || a.platform.localeCompare(b.platform));
  }

  private get clock(): HostClock {
    return this.opts.clock ?? systemClock;
  }

  private set(r: Running, state: PlatformStatus['state'], detail: StateDetail = {}): void {
    const line = (s: string | undefined): string | undefined => s?.split('\n')[0]!.slice(0, 300);
    const error = line(detail.error);
    const lastError = line(detail.last_error);
    r.status = {
      profile: r.status.profile,
      platform: r.status.platform,
      state,
      ...(error ? { error } : {}),
      ...(detail.attempt !== undefined ? { attempt: detail.attempt } : {}),
      ...(detail.retry_at ? { retry_at: detail.retry_at } : {}),
      ...(lastError ? { last_error: lastError } : {}),
      since: new Date(this.clock.now()).toISOString(),
    };
  }

  /** Starts every enabled platform of every served profile. Never throws. */
  async start(): Promise<void> {
    if (!this.opts.registry) registerBundledPlatforms();
    const profiles = this.opts.profiles?.() ?? listProfileNames(this.opts.root);
    await Promise.all(profiles.map((p) => this.startProfile(p)));
  }

  private async startProfile(profileName: string): Promise<void> {
    const { log } = this.opts;
    let profile: ProfileRuntime;
    let config: HermesConfig;
    try {
      profile = this.opts.sessions.profile(profileName);
      config = profile.config;
    } catch (err) {
      log.warn(`platforms of profile ${profileName} not started: ${(err as Error).message}`);
      return;
    }
    const enabled = Object.entries(config.platforms ?? {})
      .filter(([, c]) => c.enabled)
      .map(([name]) => name);
    if (enabled.length === 0) return;
    const plog = (line: string): void => log.info(`[${profileName}] ${line}`);
    const store = new ChatSessionIndex({
      file: profile.home.sessionsIndexFile,
      db: profile.db,
      log: plog,
      hasActiveWork: (id) => this.opts.sessions.peek(profileName, id)?.busy ?? false,
    });
    try {
      store.prune();
    } catch (err) {
      log.warn(`[${profileName}] could not prune sessions.json: ${(err as Error).message}`);
    }
    const pairing = new PairingStore(profile.home.pairingDir, { log: plog });
    const hooks = new HookRegistry(plog);
    await hooks.discover(profile.home.hooksDir).catch(() => 0);
    await Promise.all(
      enabled.map((name) => this.startPlatform(profile, name, { store, pairing, hooks, log: plog })),
    );
    await hooks.emit('gateway:startup', {
      profile: profileName,
      platforms: this.status()
        .filter((s) => s.profile === profileName)
        .map((s) => ({ platform: s.platform, state: s.state })),
    });
  }

  private async startPlatform(profile: ProfileRuntime, name: string, shared: ProfileShared): Promise<void> {
    const { log } = this.opts;
    const r: Running = {
      name,
      failures: 0,
      status: {
        profile: profile.name,
        platform: name,
        state: 'connecting',
        attempt: 1,
        since: new Date(this.clock.now()).toISOString(),
      },
    };
    this.running.set(`${profile.name}\u0000${name}`, r);
    const ctx = platformContext(profile, name, shared.log);
    const created = await this.registry.createAdapter(name, ctx);
    if (!created.ok) {
      this.set(r, 'failed', { error: `${created.stage}: ${created.error}` });
      log.warn(`[${profile.name}] platform ${name} stays offline (${created.stage}): ${created.error}`);
      return;
    }
    const { adapter, entry } = created;
    for (const secret of entry.requiredSecrets ?? []) {
      const value = lookupSecret(profile.secrets, secret);
      if (value) log.addSecret(value);
    }
    const { pipeline, backend } = wirePlatform({
      profile,
      name,
      adapter,
      entry,
      ctx,
      shared,
      sessions: this.opts.sessions,
      onButton: (press, mayApprove) => this.opts.buttons?.(profile.name, name, press, mayApprove),
      onFatalError: (err) => this.lost(r, err),
    });
    Object.assign(r, { adapter, pipeline, backend, store: shared.store });
    await this.attempt(r);
  }

  /**
   * One connect attempt of `r` (attempt `r.failures + 1`); on failure the next one is scheduled.
   * Never throws.
   */
  private attempt(r: Running): Promise<void> {
    const run = this.runAttempt(r).finally(() => {
      if (r.attempting === run) r.attempting = undefined;
    });
    r.attempting = run;
    return run;
  }

  private async runAttempt(r: Running): Promise<void> {
    const { log } = this.opts;
    const adapter = r.adapter!;
    const { profile } = r.status;
    const name = r.name;
    if (this.stopping) return;
    this.set(r, 'connecting', {
      attempt: r.failures + 1,
      ...(r.status.last_error ? { last_error: r.status.last_error } : {}),
    });
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = this.opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    try {
      await Promise.race([
        adapter.connect(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`connect timed out after ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (err) {
      const reason = `connect: ${(err as Error).message}`;
      await adapter.disconnect().catch(() => undefined); // a half-open connection must not leak
      if (this.stopping) {
        this.set(r, 'stopped');
      } else if (isPermanentError(err)) {
        this.set(r, 'failed', { error: reason });
        log.warn(`[${profile}] platform ${name} failed to connect, not retried: ${(err as Error).message}`);
      } else {
        r.failures++;
        this.backOff(r, reason);
      }
      return;
    } finally {
      clearTimeout(timer);
    }
    if (this.stopping) {
      await adapter.disconnect().catch(() => undefined);
      this.set(r, 'stopped');
      return;
    }
    r.connectedAt = this.clock.now();
    setLiveAdapter(profile, name, adapter);
    const attempts = r.failures + 1;
    this.set(r, 'connected');
    log.info(`[${profile}] platform ${name} connected${attempts > 1 ? ` (attempt ${attempts})` : ''}`);
    if (r.recovered) return;
    r.recovered = true;
    // unconfirmed replies first, then the open messages (submitted before anything new arrives)
    try {
      r.pipeline!.ledger.start();
    } catch (err) {
      log.warn(`[${profile}] platform ${name}: the delivery ledger failed: ${(err as Error).message}`);
    }
    void recoverMessages(r.pipeline!).catch((err: Error) =>
      log.warn(`[${profile}] platform ${name}: recovery failed: ${err.message}`),
    );
  }

  /** Waits the schedule's delay for `r.failures`, then tries again. */
  private backOff(r: Running, reason: string): void {
    const delay = backoffDelayMs(r.failures, this.opts.backoff);
    const at = this.clock.now() + delay;
    this.set(r, 'backing_off', {
      attempt: r.failures + 1,
      retry_at: new Date(at).toISOString(),
      last_error: reason,
    });
    this.opts.log.warn(
      `[${r.status.profile}] platform ${r.name}: ${reason}; attempt ${r.failures + 1} in ${delay} ms`,
    );
    this.clock.clearTimeout(r.timer);
    r.timer = this.clock.setTimeout(() => {
      r.timer = undefined;
      void this.attempt(r);
    }, delay);
  }

  /** The adapter lost its established connection: disconnect it, then reconnect on the schedule. */
  private lost(r: Running, err: Error): void {
    if (this.stopping || r.status.state !== 'connected') return;
    const { profile } = r.status;
    setLiveAdapter(profile, r.name, undefined);
    this.opts.log.warn(`[${profile}] platform ${r.name} lost its connection: ${err.message}`);
    if (r.connectedAt !== undefined && this.clock.now() - r.connectedAt >= STABLE_MS) r.failures = 0;
    r.failures++;
    const reason = `lost: ${err.message}`;
    this.set(r, 'backing_off', { attempt: r.failures + 1, last_error: reason });
    void r
      .adapter!.disconnect()
      .catch(() => undefined)
      .then(() => {
        if (!this.stopping) this.backOff(r, reason);
      });
  }

  /** Shutdown, first part: no new platform messages; chats with a running turn are told. */
  async beginShutdown(): Promise<void> {
    this.stopping = true;
    const all = [...this.running.values()].filter((r) => r.pipeline);
    for (const r of all) r.pipeline!.stopAccepting();
    await Promise.all(
      all.map((r) =>
        r.status.state === 'connected' ? r.pipeline!.notifyShutdown().catch(() => 0) : Promise.resolve(0),
      ),
    );
  }

  /** Shutdown, last part: disconnect every adapter. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.running.values()].map(async (r) => {
        this.clock.clearTimeout(r.timer);
        r.timer = undefined;
        r.pipeline?.ledger.stop();
        r.backend?.closeAll();
        if (!r.adapter) return;
        await r.attempting; // its connect returns (at most the timeout), then sees `stopping`
        setLiveAdapter(r.status.profile, r.status.platform, undefined);
        await r.adapter.disconnect().catch(() => undefined);
        if (r.status.state !== 'failed') this.set(r, 'stopped');
      }),
    );
  }
}

type HookSet = Pick<DaemonOptions, 'registerHandlers' | 'drain' | 'stats' | 'profiles' | 'activeProfile'>;

/**
 * Adds the adapter host to the daemon hooks of compose.ts: adapters start after the handlers are
 * registered (in the background: a slow platform never delays the daemon), `gateway.status`
 * reports each platform's state, and shutdown wraps the session layer's drain (see the module doc).
 * @param sessions returns the session registry once `registerHandlers` created it.
 */
export function withPlatformAdapters<H extends HookSet>(
  root: string,
  sessions: () => SessionRegistry | undefined,
  hooks: H,
  buttons?: () => AdapterHostOptions['buttons'],
  onHost?: (host: AdapterHost) => void,
): H {
  let host: AdapterHost | undefined;
  let started: Promise<void> = Promise.resolve();
  return {
    ...hooks,
    registerHandlers: async (rpc, ctx: DaemonContext) => {
      await hooks.registerHandlers?.(rpc, ctx);
      const registry = sessions();
      if (!registry) return;
      host = new AdapterHost({
        root,
        sessions: registry,
        log: ctx.log,
        profiles: () => listProfileNames(root),
        ...(buttons
          ? { buttons: (profile, platform, press, may) => buttons()?.(profile, platform, press, may) }
          : {}),
      });
      const h = host;
      onHost?.(h);
      started = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
        h.start().catch((err: Error) => ctx.log.error('platform adapters failed to start', err)),
      );
    },
    drain: async (req) => {
      // adapters still connecting are disconnected by stop() or as soon as their connect returns
      void started;
      await host?.beginShutdown();
      const result = await hooks.drain?.(req);
      await host?.stop();
      return result;
    },
    stats: async () => {
      const base = (await hooks.stats?.()) ?? { sessions_live: 0 };
      return host ? { ...base, platforms: host.status() } : base;
    },
  };
}
