/**
 * Keeps a live session on its profile's current config (config.yaml / `.env` edited while the
 * daemon runs; profile-config.ts detects it). What changes when:
 *
 * - **At the next turn start** (never inside a running turn): the agent gets the new config,
 *   secrets and a model client built from them (`Agent.reconfigure`): `model.*` and
 *   `fallback_providers` (the next model request), API keys, `approvals.*` and
 *   `command_allowlist`, `compression.*`, `checkpoints.*`, `agent.max_turns`, tool settings.
 * - **At once, also inside a running turn**: approval settings that got stricter (a mode that
 *   asks more, a shorter timeout, allowlist entries removed; `restrict`). A loosening never
 *   reaches a running turn: it keeps the settings it started with, and clients are told of it
 *   (`config.changed` `loosened`, profile-config.ts) before it applies at the next turn.
 * - **Never within a session**: the system prompt (byte-stable for the provider's prompt cache;
 *   SOUL.md, memory and skills index are read when a session opens). New sessions get it all.
 * - **The model**: a session created with an explicit `model`, or switched with `/model ID`
 *   (`pin`), keeps it — after `/model provider/model` its provider too; the others follow
 *   `model.default`. The stored session's model is updated (and `session.info` sent, so status
 *   bars show it) as soon as an idle session learns of the change, else when its next turn starts.
 * - **A broken config.yaml**: the last good config stays; each session is told once per error
 *   with an `error` event `{kind: "config"}`.
 */
import { historyFromRecords, type Agent, type AgentSettings } from '@hermes/core/agent';
import type { HermesConfig } from '@hermes/core/config';
import { MediaStore } from '@hermes/core/images';
import type { ModelClient, ReasoningEffort } from '@hermes/core/model';
import type { ApprovalModeName } from '@hermes/core/protocol';
import type { SessionRecord } from '@hermes/core/state';
import type { LiveSession, SessionAgent } from './live-session.js';
import type { ProfileRuntime } from './profile-runtime.js';

/** What the follower needs from the profile's database. */
export interface SessionModelStore {
  getSession(id: string): SessionRecord | undefined;
  setSessionModel(id: string, model: string): void;
}

/**
 * The provider a session was switched to with `/model` (`model.provider`, `model.base_url`,
 * `model.api_key_env` at that moment): it keeps it when config.yaml later names another one.
 */
export interface PinnedProvider {
  provider: string;
  base_url?: string;
  api_key_env?: string;
}

/** Options of `SessionConfigFollower`. */
export interface SessionConfigFollowerOptions {
  profile: ProfileRuntime;
  store: SessionModelStore;
  /** The model given at `session.create` (kept whatever config says); absent: `model.default`. */
  pinnedModel?: string;
  /**
   * Builds a model client from the profile's current config and secrets, with the session's
   * pinned model and, when pinned, its provider (endpoint and key variable) over the config's.
   */
  modelClient: (pinnedModel: string | undefined, pinnedProvider?: PinnedProvider) => ModelClient;
  log?: (line: string) => void;
}

/** One live session's view of its profile's config changes. */
export class SessionConfigFollower {
  private applied = -1;
  private reportedProblem = 0;
  private agent: Pick<Agent, 'reconfigure' | 'restrictApprovals'> | undefined;
  private pinned: string | undefined;
  private pinnedProvider: PinnedProvider | undefined;
  private repinned = false;
  /** The session's own approval mode over the profile's (`session.approvals.set`). */
  private ownMode: ApprovalModeName | undefined;
  /** The session's own reasoning effort over `model.reasoning_effort` (`/reasoning`). */
  private ownEffort: ReasoningEffort | undefined;

  constructor(private readonly o: SessionConfigFollowerOptions) {
    this.pinned = o.pinnedModel;
  }

  /**
   * Pins the session to `model` (`/model ID`): its next turn rebuilds the model client for it,
   * and later `model.default` edits no longer move it.
   */
  pin(model: string, provider?: PinnedProvider): void {
    this.pinned = model;
    if (provider) this.pinnedProvider = provider;
    this.repinned = true; // reconfigure at the next turn even if the config did not change
  }

  /**
   * Sets (or with undefined, clears) the session's own approval mode over the profile's
   * `approvals.mode`. A stricter effective mode reaches a running turn at once
   * (`Agent.restrictApprovals`); any change applies fully from the next turn.
   */
  setApprovalMode(mode: ApprovalModeName | undefined, sessionId: string): void {
    this.ownMode = mode;
    this.repinned = true; // the next turn rebuilds the guard with it even if the config did not change
    this.restrict(sessionId);
  }

  /**
   * Sets (or with undefined, clears) the session's own reasoning effort over the profile's
   * `model.reasoning_effort` (`/reasoning`); it applies from the next turn.
   */
  setReasoningEffort(effort: ReasoningEffort | undefined): void {
    this.ownEffort = effort;
    this.repinned = true; // the next turn takes it even if the config did not change
  }

  /** The reasoning effort in effect (undefined: the provider's default) and whether it is the session's own. */
  reasoningEffort(): { effort: ReasoningEffort | undefined; own: boolean } {
    if (this.ownEffort) return { effort: this.ownEffort, own: true };
    try {
      return { effort: this.o.profile.config.model.reasoning_effort, own: false };
    } catch {
      return { effort: undefined, own: false }; // never loaded: the default
    }
  }

  /** The approval mode in effect (the session's own, else the profile's) and whether it is its own. */
  approvalMode(): { mode: ApprovalModeName; own: boolean } {
    if (this.ownMode) return { mode: this.ownMode, own: true };
    return { mode: this.profileApprovalMode(), own: false };
  }

  /** The profile's `approvals.mode` (`manual` when its config cannot be read). */
  profileApprovalMode(): ApprovalModeName {
    try {
      return this.o.profile.config.approvals.mode;
    } catch {
      return 'manual'; // never loaded: the default
    }
  }

  /** The profile's config with the session's own approval mode and reasoning effort over it. */
  private effectiveConfig(): HermesConfig {
    let config = this.o.profile.config;
    if (this.ownMode && config.approvals.mode !== this.ownMode) {
      config = { ...config, approvals: { ...config.approvals, mode: this.ownMode } };
    }
    if (this.ownEffort && config.model.reasoning_effort !== this.ownEffort) {
      config = { ...config, model: { ...config.model, reasoning_effort: this.ownEffort } };
    }
    return config;
  }

  /**
   * Wraps the agent the live session drives: each turn (and `/compact`) first re-checks the
   * profile's files and, when the config or secrets changed since the agent was built, swaps them.
   * @param builtWith the profile's `configVersion` the agent was built with.
   */
  wrap(agent: Agent, builtWith: number, live: () => LiveSession | undefined): SessionAgent {
    this.agent = agent;
    this.applied = builtWith;
    const before = (): void => {
      this.o.profile.refresh();
      const l = live();
      this.apply(l?.id ?? '?');
      if (l) this.sync(l, true);
    };
    return {
      runTurn: (text, signal, opts) => {
        before();
        return agent.runTurn(text, signal, opts);
      },
      compact: (focus, signal) => {
        before();
        return agent.compact(focus, signal);
      },
      // the kept messages' images are re-sent as image parts, as when the session was opened
      replaceHistory: (records) =>
        agent.replaceHistory(
          historyFromRecords(records, new MediaStore(this.o.profile.home.mediaDir)).history,
        ),
    };
  }

  /**
   * Gives the agent the profile's current settings when they changed since it got them.
   * @throws Error when no model client can be built from the new config (the turn reports it).
   */
  private apply(sessionId: string): void {
    const { profile } = this.o;
    if (!this.agent || (profile.configVersion === this.applied && !this.repinned)) return;
    const version = profile.configVersion;
    const settings: AgentSettings = {
      config: this.effectiveConfig(),
      secrets: profile.secrets,
      model: this.o.modelClient(this.pinned, this.pinnedProvider),
    };
    this.agent.reconfigure(settings);
    this.applied = version;
    this.repinned = false;
    this.o.log?.(
      `session ${sessionId}: now on config v${version} of profile ${profile.name} (model ${settings.model.defaultModel})`,
    );
  }

  /**
   * Gives a running turn the profile's current approval settings where they are stricter than
   * the turn's (`Agent.restrictApprovals`); an idle session gets the whole config at its next
   * turn. Never throws.
   */
  restrict(sessionId: string): void {
    try {
      if (this.agent?.restrictApprovals(this.effectiveConfig())) {
        this.o.log?.(
          `session ${sessionId}: stricter approval settings of profile ${this.o.profile.name} apply to the running turn`,
        );
      }
    } catch (err) {
      this.o.log?.(
        `session ${sessionId}: cannot apply stricter approval settings: ${(err as Error).message}`,
      );
    }
  }

  /** The model the session uses under the current config, or undefined when none is set. */
  private model(): string | undefined {
    if (this.pinned) return this.pinned;
    try {
      return this.o.profile.config.model.default || undefined;
    } catch {
      return undefined; // never loaded successfully: nothing to follow
    }
  }

  /**
   * Tells the session's clients what changed: a config problem (once per error), and — with
   * `withModel`, i.e. when no turn of the old model is running — the model it now uses, stored
   * in the session record and sent as `session.info`. Never throws.
   */
  sync(live: LiveSession, withModel: boolean): void {
    const problem = this.o.profile.configProblem;
    if (problem && problem.id !== this.reportedProblem) {
      this.reportedProblem = problem.id;
      live.emit('error', {
        message: `${problem.message} (the last good config stays in use until the file is fixed)`,
        kind: 'config',
      });
    }
    const model = withModel ? this.model() : undefined;
    if (!model) return;
    try {
      if (this.o.store.getSession(live.id)?.model === model) return;
      this.o.store.setSessionModel(live.id, model);
      live.emit('session.info', { session: live.info() });
    } catch (err) {
      this.o.log?.(`session ${live.id}: cannot store its new model: ${(err as Error).message}`);
    }
  }
}
