/**
 * How the adapter host (adapter-host.ts) wires one platform of a profile into the daemon: the
 * context its adapter is created with (the profile's config, secrets, replay window and API
 * response store), then for the created adapter its live-session backend (bounds from the
 * platform's config section), its delivery ledger in the profile's state.db (none for platforms
 * that answer inside the inbound request), its message pipeline, and the adapter's handlers:
 * messages go to the pipeline (a one-off conversation's live session is released after its
 * answer), button presses to the host's handler first, a lost connection to the host.
 */
import {
  DeliveryLedger,
  MessagePipeline,
  platformConfigOf,
  storedReplayGuard,
  type ButtonOutcome,
  type ButtonPress,
  type ChatSessionIndex,
  type HookRegistry,
  type PairingStore,
  type PlatformAdapter,
  type PlatformContext,
  type PlatformEntry,
} from '@hermes/core/messaging';
import { defaultPlatformCwd } from '@hermes/core/platform-sessions';
import type { ProfileRuntime } from '../sessions/profile-runtime.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { LiveSessionBackend, type LiveBackendLimits } from './live-backend.js';

/** What the platforms of one profile share: its routing index, pairing codes, hooks and log. */
export interface ProfileShared {
  store: ChatSessionIndex;
  pairing: PairingStore;
  hooks: HookRegistry;
  log: (line: string) => void;
}

/**
 * The context platform `name` of `profile` is created with (its log lines prefixed with the
 * platform's name).
 */
export function platformContext(
  profile: ProfileRuntime,
  name: string,
  log: (line: string) => void,
): PlatformContext {
  return {
    profile: profile.name,
    home: profile.home,
    hermesConfig: profile.config,
    config: platformConfigOf(profile.config.platforms, name),
    secrets: profile.secrets,
    log: (line) => log(`${name}: ${line}`),
    replayGuard: storedReplayGuard(profile.db.platforms, name),
    apiResponses: profile.db.apiResponses,
  };
}

/**
 * The live-session bounds of a platform from its config section: `max_live_sessions` (count) and
 * `live_idle_minutes`; defaults in live-backend.ts.
 */
export function liveLimits(config: unknown): LiveBackendLimits {
  const c = (config ?? {}) as { max_live_sessions?: unknown; live_idle_minutes?: unknown };
  const out: LiveBackendLimits = {};
  if (typeof c.max_live_sessions === 'number' && c.max_live_sessions >= 1)
    out.maxLive = Math.floor(c.max_live_sessions);
  if (typeof c.live_idle_minutes === 'number' && c.live_idle_minutes > 0)
    out.idleMs = c.live_idle_minutes * 60_000;
  return out;
}

/** A created adapter and what it is wired to. */
export interface WireRequest {
  profile: ProfileRuntime;
  name: string;
  adapter: PlatformAdapter;
  entry: PlatformEntry;
  ctx: PlatformContext;
  shared: ProfileShared;
  sessions: SessionRegistry;
  /**
   * Takes a pressed button first (an escalated question); undefined: the pipeline takes it.
   * `mayApprove`: the platform's access rules admit the presser and let them answer approvals.
   */
  onButton: (press: ButtonPress, mayApprove: boolean) => ButtonOutcome | undefined;
  /** The adapter lost its established connection. */
  onFatalError: (err: Error) => void;
}

/** Wires a created adapter (see the file comment). @returns its pipeline and backend. */
export function wirePlatform(w: WireRequest): { pipeline: MessagePipeline; backend: LiveSessionBackend } {
  const { profile, name, adapter, entry, ctx, shared } = w;
  const backend = new LiveSessionBackend(w.sessions, profile.name, name, liveLimits(ctx.config));
  // platforms answering inside the inbound request keep no ledger (the pipeline's default)
  const ledger: DeliveryLedger | undefined =
    entry.durableReplies === false
      ? undefined
      : new DeliveryLedger({
          platform: name,
          store: profile.db.platforms,
          sender: adapter,
          maxLength: (): number => pipeline.maxLength(),
          fileAbove: (): number => pipeline.longReplyFileAbove(),
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
        const keep = (platformConfigOf(profile.config.platforms, name) as { store?: unknown }).store === true;
        backend.release(chat, { keepStored: keep });
      }
    },
    onButton: (p) => w.onButton(p, pipeline.mayApprove(p.source)) ?? pipeline.handleButton(p),
    isAuthorized: (source) => pipeline.isAuthorized(source),
    onFatalError: (err) => w.onFatalError(err),
  });
  return { pipeline, backend };
}
