/**
 * The platform registry: one record per platform carrying everything the
 * rest of the system needs — factory, requirements check, config validation, allowed-users
 * variable, PII safety, message length, cron home-channel variable, a sender usable without the
 * daemon, a one-line hint for the system prompt.
 *
 * Discovery registers loaders only (`registerDeferredPlatform`); a platform's module (and its
 * SDK) is imported the first time the platform is looked up, so `hermes --version` and the TUI
 * never pay for it. `isRegistered` counts deferred entries without loading them.
 *
 * `createAdapter` isolates failures per platform: a failing loader, check, config validation or
 * factory yields `{ok: false, stage, error}` and the platform stays offline; the others are not
 * affected.
 */
import type { HermesConfig } from '../config/schema.js';
import type { ResetPolicyConfig } from './reset-policy.js';
import type { Secrets } from '../config/secrets.js';
import type { HermesHome } from '../home/home.js';
import type { PlatformAdapter, SendOptions, SendResult } from './adapter.js';
import { PLATFORM_NAME_RE } from './delivery-target.js';
import type { PlatformConfig } from './platform-config.js';
import type { ApiResponseTable } from '../state/api-responses.js';
import type { ReplayGuard } from './replay-guard.js';

/** Everything a platform's functions get: one profile's home, config and secrets. */
export interface PlatformContext {
  /** Profile serving the platform. */
  profile: string;
  home: HermesHome;
  /** The whole profile config. */
  hermesConfig: HermesConfig;
  /** `platforms.<name>` with defaults filled (adapter-specific keys kept). */
  config: PlatformConfig;
  /** The profile's secrets (`.env`); look keys up with `lookupSecret`. */
  secrets: Secrets;
  /** Operational log; never log secrets or pairing codes. */
  log: (line: string) => void;
  /**
   * Where the platform remembers keys it accepted once (a webhook's signatures) across restarts;
   * the daemon passes the profile's state.db. Without it, adapters remember in memory.
   */
  replayGuard?: ReplayGuard;
  /**
   * Where the API server keeps the responses it stored (`POST /v1/responses`); the daemon passes
   * the profile's state.db table. Without it, the adapter keeps them in memory.
   */
  apiResponses?: Pick<ApiResponseTable, 'put' | 'get' | 'latest' | 'delete' | 'prune'>;
}

/** A check result: `true`, or a one-line reason shown in logs and `hermes gateway status`. */
export type CheckResult = true | string;

/** One platform's registration. Only `name`, `label` and `createAdapter` are required. */
export interface PlatformEntry {
  /** config.yaml key and delivery-target name: lower case, `[a-z][a-z0-9_-]*`. */
  name: string;
  /** Human-readable name, e.g. `IRC`. */
  label: string;
  /** Builds the adapter (not yet connected). May throw; the platform then stays offline. */
  createAdapter(ctx: PlatformContext): PlatformAdapter | Promise<PlatformAdapter>;
  /** Passive requirements probe (secrets present, SDK loadable); no side effects. */
  checkRequirements?(ctx: PlatformContext): CheckResult | Promise<CheckResult>;
  /** Validates `platforms.<name>` (adapter-specific keys). */
  validateConfig?(ctx: PlatformContext): CheckResult;
  /** Secret holding extra allowed user ids, comma-separated (e.g. `TELEGRAM_ALLOWED_USERS`). */
  allowedUsersEnv?: string;
  /** User ids may be hashed for the model (no mention syntax needing raw ids). */
  piiSafe?: boolean;
  /** Longest message, characters (0/undefined: no limit); the pipeline splits longer replies. */
  maxMessageLength?: number;
  /**
   * A reply longer than this many characters is sent as a file (`sendFile`, with a one-line
   * summary as its caption) instead of being split; `platforms.<name>.long_reply_as_file_above`
   * overrides it. Undefined/0: long replies are split. Only for adapters that override `sendFile`.
   */
  longReplyAsFileAbove?: number;
  /** Secret naming the home channel for cron delivery to `<name>` (fallback of `home_channel`). */
  cronDeliverEnvVar?: string;
  /** Sends a message without a running daemon (cron from the CLI); undefined when impossible. */
  standaloneSender?(
    ctx: PlatformContext,
    chatId: string,
    text: string,
    opts?: SendOptions,
  ): Promise<SendResult>;
  /** One line added to the system prompt of this platform's sessions (formatting hints). */
  platformHint?: string;
  /**
   * `messaging` (default): the messaging layer's allow-lists and pairing apply. `adapter`: the adapter
   * authenticates every request itself (bearer key, HMAC signature) and its messages are
   * authorized as they arrive.
   */
  authorization?: 'messaging' | 'adapter';
  /** No chat notice when a session is reset by policy (clients are programs, not people). */
  quietResets?: boolean;
  /**
   * The platform's own default reset policy, in place of `gateway.session_reset` (the platform's
   * `reset` / `reset_by_type` still come first): `{mode: 'none'}` for a platform whose clients
   * name their conversations and expect them to last (`api_server`).
   */
  defaultReset?: ResetPolicyConfig;
  /** Secrets the platform needs, for status and setup display. */
  requiredSecrets?: readonly string[];
  /**
   * Replies are kept in the delivery ledger of state.db, retried, and sent after a restart
   * (default). False for a platform that answers inside the inbound request (`api_server`): its
   * reply is tried once, and nothing is recovered after a restart (the caller is gone).
   */
  durableReplies?: boolean;
}

/** Why `createAdapter` failed. */
export type AdapterFailureStage = 'unknown' | 'load' | 'check' | 'config' | 'factory';

/** Result of `PlatformRegistry.createAdapter`. */
export type CreateAdapterResult =
  | { ok: true; adapter: PlatformAdapter; entry: PlatformEntry }
  | { ok: false; stage: AdapterFailureStage; error: string; entry?: PlatformEntry };

/** Loads a platform's module; it returns the entry or calls `registerPlatform` itself. */
export type PlatformLoader = () => Promise<PlatformEntry | void | unknown>;

function checkName(name: string): void {
  if (!PLATFORM_NAME_RE.test(name)) throw new Error(`invalid platform name "${name}"`);
}

function isEntry(v: unknown): v is PlatformEntry {
  return (
    !!v &&
    typeof v === 'object' &&
    typeof (v as PlatformEntry).name === 'string' &&
    typeof (v as PlatformEntry).createAdapter === 'function'
  );
}

/** A registry of platforms. The process-wide one is `platformRegistry`. */
export class PlatformRegistry {
  private readonly entries = new Map<string, PlatformEntry>();
  private readonly deferred = new Map<string, PlatformLoader>();
  private readonly loading = new Map<string, Promise<PlatformEntry | undefined>>();
  private readonly loadErrors = new Map<string, string>();

  /**
   * Registers a platform (last registration of a name wins; a pending loader of the name is
   * dropped).
   * @throws Error for a malformed name or a missing factory.
   */
  register(entry: PlatformEntry): void {
    if (!isEntry(entry)) throw new Error('registerPlatform needs {name, label, createAdapter}');
    checkName(entry.name);
    this.deferred.delete(entry.name);
    this.loadErrors.delete(entry.name);
    this.entries.set(entry.name, entry);
  }

  /** Registers a loader that imports the platform on first lookup (no import now). */
  registerDeferred(name: string, loader: PlatformLoader): void {
    checkName(name);
    if (this.entries.has(name)) return;
    this.deferred.set(name, loader);
  }

  /** True when the name is registered or has a pending loader (never imports anything). */
  isRegistered(name: string): boolean {
    return this.entries.has(name) || this.deferred.has(name) || this.loading.has(name);
  }

  /** Every registered name, loaded or not, sorted. */
  names(): string[] {
    return [...new Set([...this.entries.keys(), ...this.deferred.keys(), ...this.loading.keys()])].sort();
  }

  /** The entry if already loaded (no import). */
  peek(name: string): PlatformEntry | undefined {
    return this.entries.get(name);
  }

  /** Why the last load of `name` failed, if it did. */
  loadError(name: string): string | undefined {
    return this.loadErrors.get(name);
  }

  /**
   * The entry of a platform, running its loader on first use (concurrent callers share one
   * load). A loader that throws or registers nothing leaves the platform unregistered and its
   * error readable through `loadError`.
   */
  async get(name: string): Promise<PlatformEntry | undefined> {
    const have = this.entries.get(name);
    if (have) return have;
    const inflight = this.loading.get(name);
    if (inflight) return inflight;
    const loader = this.deferred.get(name);
    if (!loader) return undefined;
    this.deferred.delete(name);
    const p = (async () => {
      try {
        const result = await loader();
        if (isEntry(result) && !this.entries.has(name)) {
          if (result.name !== name)
            throw new Error(`loader of "${name}" returned the entry of "${result.name}"`);
          this.register(result);
        }
        const entry = this.entries.get(name);
        if (!entry) throw new Error(`loading "${name}" registered no platform of that name`);
        return entry;
      } catch (err) {
        this.loadErrors.set(name, (err as Error).message);
        return undefined;
      } finally {
        this.loading.delete(name);
      }
    })();
    this.loading.set(name, p);
    return p;
  }

  /**
   * Builds a platform's adapter in order: load → `checkRequirements` → `validateConfig` →
   * `createAdapter`. Any failure (thrown or reported) stops there and is returned, never thrown.
   */
  async createAdapter(name: string, ctx: PlatformContext): Promise<CreateAdapterResult> {
    if (!this.isRegistered(name))
      return { ok: false, stage: 'unknown', error: `no platform named "${name}"` };
    const entry = await this.get(name);
    if (!entry)
      return {
        ok: false,
        stage: 'load',
        error: `could not load: ${this.loadErrors.get(name) ?? 'unknown error'}`,
      };
    const step = async (
      stage: AdapterFailureStage,
      fn: (() => CheckResult | Promise<CheckResult>) | undefined,
    ): Promise<CreateAdapterResult | undefined> => {
      if (!fn) return undefined;
      try {
        const r = await fn();
        return r === true ? undefined : { ok: false, stage, error: String(r), entry };
      } catch (err) {
        return { ok: false, stage, error: (err as Error).message, entry };
      }
    };
    const failed =
      (await step('check', entry.checkRequirements && (() => entry.checkRequirements!(ctx)))) ??
      (await step('config', entry.validateConfig && (() => entry.validateConfig!(ctx))));
    if (failed) return failed;
    try {
      const adapter = await entry.createAdapter(ctx);
      if (!adapter) return { ok: false, stage: 'factory', error: 'the factory returned nothing', entry };
      return { ok: true, adapter, entry };
    } catch (err) {
      return { ok: false, stage: 'factory', error: (err as Error).message, entry };
    }
  }
}

/** The process-wide registry the daemon and cron use. */
export const platformRegistry = new PlatformRegistry();

/** Registers a platform in the process-wide registry (plugins call this). */
export function registerPlatform(entry: PlatformEntry): void {
  platformRegistry.register(entry);
}

/** Registers a deferred loader in the process-wide registry. */
export function registerDeferredPlatform(name: string, loader: PlatformLoader): void {
  platformRegistry.registerDeferred(name, loader);
}
