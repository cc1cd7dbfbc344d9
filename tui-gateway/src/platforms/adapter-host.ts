/**
 * The daemon's adapter host (seed 000 §3.5, issue 6): starts the enabled platform adapters of
 * every served profile, wires each to a message pipeline (core/src/gateway/pipeline.ts) whose
 * agents are the daemon's live sessions, reports each platform's state for `gateway.status`,
 * and stops them on shutdown.
 *
 * - Start, per profile: prune the routing index, load hooks, fire `gateway:startup`; per enabled
 *   platform: registry `createAdapter` (load → requirements → config → factory), then `connect`
 *   with a timeout. Any failure leaves that platform `failed` with a one-line reason; a failed
 *   connect is followed by `disconnect` so nothing leaks; the other platforms come up anyway.
 * - Each platform's delivery ledger and replay window live in the profile's state.db. Once the
 *   adapter is connected, the ledger sends the replies a previous daemon left unconfirmed, and
 *   the messages it left open get their outcome (core/src/gateway/pipeline-recovery.ts).
 * - Shutdown (wrapped around the session layer's drain): stop taking platform messages, tell
 *   chats with a running turn that the agent restarts (adapters still connected), let the
 *   session layer drain (it marks `resume_pending` before waiting), then disconnect adapters.
 *
 * `withPlatformAdapters` wraps the daemon hooks of compose.ts (one call there).
 */
import type { HermesConfig } from '@hermes/core/config/schema';
import { lookupSecret } from '@hermes/core/config/secrets';
import {
  DeliveryLedger,
  GatewaySessionStore,
  HookRegistry,
  MessagePipeline,
  PairingStore,
  platformConfigOf,
  platformRegistry,
  recoverMessages,
  setLiveAdapter,
  storedReplayGuard,
  type PlatformAdapter,
  type PlatformContext,
  type PlatformRegistry,
} from '@hermes/core/gateway/index';
import { defaultPlatformCwd } from '@hermes/core/gateway/session-factory';
import type { DaemonContext, DaemonOptions } from '../lifecycle/daemon.js';
import type { Logger } from '../lifecycle/logger.js';
import { listProfileNames, type ProfileRuntime } from '../sessions/profile-runtime.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { registerBundledPlatforms } from './bundled.js';
import { LiveSessionBackend, type LiveBackendLimits } from './live-backend.js';

/**
 * The live-session bounds of a platform from its config section: `max_live_sessions` (count) and
 * `live_idle_minutes`; defaults in live-backend.ts.
 */
function liveLimits(config: unknown): LiveBackendLimits {
  const c = (config ?? {}) as { max_live_sessions?: unknown; live_idle_minutes?: unknown };
  const out: LiveBackendLimits = {};
  if (typeof c.max_live_sessions === 'number' && c.max_live_sessions >= 1)
    out.maxLive = Math.floor(c.max_live_sessions);
  if (typeof c.live_idle_minutes === 'number' && c.live_idle_minutes > 0)
    out.idleMs = c.live_idle_minutes * 60_000;
  return out;
}

/** Longest a platform's `connect` may take before it counts as failed, ms. */
export const CONNECT_TIMEOUT_MS = 30_000;

/** State of one platform in one profile, as `gateway.status` reports it. */
export interface PlatformStatus {
  profile: string;
  platform: string;
  state: 'starting' | 'connected' | 'failed' | 'stopped';
  /** Why it failed (one line, no secrets). */
  error?: string;
  /** ISO time of the last state change. */
  since: string;
}

interface Running {
  status: PlatformStatus;
  adapter?: PlatformAdapter;
  pipeline?: MessagePipeline;
  backend?: LiveSessionBackend;
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
}

/** Runs the platform adapters of a daemon. */
export class AdapterHost {
  private readonly running = new Map<string, Running>();
  private stopping = false;

  constructor(private readonly opts: AdapterHostOptions) {}

  private get registry(): PlatformRegistry {
    return this.opts.registry ?? platformRegistry;
  }

  /** Each platform's state, sorted by profile and name. */
  status(): PlatformStatus[] {
    return [...this.running.values()]
      .map((r) => ({ ...r.status }))
      .sort((a, b) => a.profile.localeCompare(b.profile) || a.platform.localeCompare(b.platform));
  }

  private set(r: Running, state: PlatformStatus['state'], error?: string): void {
    r.status = {
      profile: r.status.profile,
      platform: r.status.platform,
      state,
      ...(error ? { error: error.split('\n')[0]!.slice(0, 300) } : {}),
      since: new Date().toISOString(),
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
    const store = new GatewaySessionStore({
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

  private async startPlatform(
    profile: ProfileRuntime,
    name: string,
    shared: {
      store: GatewaySessionStore;
      pairing: PairingStore;
      hooks: HookRegistry;
      log: (l: string) => void;
    },
  ): Promise<void> {
    const { log } = this.opts;
    const r: Running = {
      status: { profile: profile.name, platform: name, state: 'starting', since: new Date().toISOString() },
    };
    this.running.set(`${profile.name}\u0000${name}`, r);
    const ctx: PlatformContext = {
      profile: profile.name,
      home: profile.home,
      hermesConfig: profile.config,
      config: platformConfigOf(profile.config.platforms, name),
      secrets: profile.secrets,
      log: (line) => shared.log(`${name}: ${line}`),
      replayGuard: storedReplayGuard(profile.db.platforms, name),
    };
    const created = await this.registry.createAdapter(name, ctx);
    if (!created.ok) {
      this.set(r, 'failed', `${created.stage}: ${created.error}`);
      log.warn(`[${profile.name}] platform ${name} stays offline (${created.stage}): ${created.error}`);
      return;
    }
    const { adapter, entry } = created;
    for (const secret of entry.requiredSecrets ?? []) {
      const value = lookupSecret(profile.secrets, secret);
      if (value) log.addSecret(value);
    }
    const backend = new LiveSessionBackend(this.opts.sessions, profile.name, name, liveLimits(ctx.config));
    // platforms answering inside the inbound request keep no ledger (the pipeline's default)
    const ledger: DeliveryLedger | undefined =
      entry.durableReplies === false
        ? undefined
        : new DeliveryLedger({
            platform: name,
            store: profile.db.platforms,
            sender: adapter,
            maxLength: (): number => pipeline.maxLength(),
            log: ctx.log,
          });
    const pipeline: MessagePipeline = new MessagePipeline({
      profile: profile.name,
      home: profile.home,
      entry,
      adapter,
      backend,
      store: shared.store,
      pairing: shared.pairing,
      hooks: shared.hooks,
      config: () => profile.config,
      secrets: () => profile.secrets,
      defaultCwd: defaultPlatformCwd(profile.home),
      log: ctx.log,
      ...(ledger ? { ledger } : {}),
      transcript: {
        getMessages: (id, o) => profile.db.getMessages(id, o),
        lastMessageId: (id) => profile.db.platforms.lastMessageId(id),
      },
    });
    adapter.setHandlers({
      onMessage: async (m) => {
        await pipeline.handleMessage(m);
        // a one-off conversation leaves no live session behind; stored only with `store: true`
        const chat = m.source.chatId ?? m.source.userId;
        if (m.ephemeral && chat) {
          const keep =
            (platformConfigOf(profile.config.platforms, name) as { store?: unknown }).store === true;
          backend.release(chat, { keepStored: keep });
        }
      },
      onButton: (p) => pipeline.handleButton(p),
      onFatalError: (err) => {
        this.set(r, 'failed', err.message);
        setLiveAdapter(profile.name, name, undefined);
        log.warn(`[${profile.name}] platform ${name} lost its connection: ${err.message}`);
      },
    });
    Object.assign(r, { adapter, pipeline, backend });
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
      this.set(r, 'failed', `connect: ${(err as Error).message}`);
      log.warn(`[${profile.name}] platform ${name} failed to connect: ${(err as Error).message}`);
      await adapter.disconnect().catch(() => undefined); // a half-open connection must not leak
      return;
    } finally {
      clearTimeout(timer);
    }
    if (this.stopping) {
      await adapter.disconnect().catch(() => undefined);
      this.set(r, 'stopped');
      return;
    }
    setLiveAdapter(profile.name, name, adapter);
    this.set(r, 'connected');
    log.info(`[${profile.name}] platform ${name} connected`);
    // unconfirmed replies first, then the open messages (submitted before anything new arrives)
    try {
      pipeline.ledger.start();
    } catch (err) {
      log.warn(`[${profile.name}] platform ${name}: the delivery ledger failed: ${(err as Error).message}`);
    }
    void recoverMessages(pipeline).catch((err: Error) =>
      log.warn(`[${profile.name}] platform ${name}: recovery failed: ${err.message}`),
    );
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
        r.pipeline?.ledger.stop();
        r.backend?.closeAll();
        if (!r.adapter) return;
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
      });
      const h = host;
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
