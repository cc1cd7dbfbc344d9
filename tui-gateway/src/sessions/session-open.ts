/**
 * How the registry opens a session's agent on a profile: the options of `openAgentSession` (the
 * profile's home, database, writer, config, secrets, live tool set and background processes,
 * and the live session's hooks), the model client for the profile's config (or a session's
 * pinned provider), the live session's store (reads from the SessionDB, writes through the
 * never-blocking writer), and the forwarding hooks of a session created before its live session
 * exists.
 */
import type { openAgentSession } from '@hermes/core/agent';
import type { HermesConfig } from '@hermes/core/config';
import { createModelClient, type ModelClient } from '@hermes/core/model';
import { profileProcesses, type ProcessManager } from '@hermes/core/processes';
import { storedCostOf } from '@hermes/core/state';
import type { AgentHooks, SessionPersistence } from './live-session-types.js';
import type { ProfileRuntime } from './profile-runtime.js';
import type { PinnedProvider } from './session-config.js';

/** The registry's settings an agent is opened with. */
export interface OpenSettings {
  /** Replaces the model client of every agent (tests). */
  modelClientFactory?: ((profile: ProfileRuntime, model?: string) => ModelClient) | undefined;
  /** The daemon's background processes (narrowed to the profile). */
  processes?: ProcessManager | undefined;
}

/**
 * The `openAgentSession` options of a session of `profile` (cwd: the daemon's, source `tui`;
 * callers override them for a new session).
 * @param select which session: an existing id or a new one.
 */
export function agentOpenOptions(
  profile: ProfileRuntime,
  select: Parameters<typeof openAgentSession>[0]['select'],
  hooks: AgentHooks,
  settings: OpenSettings,
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
    ...(settings.modelClientFactory ? { modelClient: settings.modelClientFactory(profile) } : {}),
    onEvent: hooks.onEvent,
    onApproval: hooks.onApproval,
    onClarify: hooks.onClarify,
    editorFiles: hooks.editorFiles,
    ...(settings.processes ? { processes: profileProcesses(settings.processes, profile.home) } : {}),
  };
}

/** `config` with the session's pinned provider (endpoint and key variable) in place of its own. */
function withProvider(config: HermesConfig, pinned: PinnedProvider): HermesConfig {
  const { base_url: _url, api_key_env: _key, ...model } = config.model;
  return { ...config, model: { ...model, ...pinned } };
}

/**
 * A model client for the profile's current config (the test factory when there is one).
 * @param model overrides the configured model; `provider`: the session's pinned provider.
 */
export function modelClientFor(
  profile: ProfileRuntime,
  model: string | undefined,
  provider: PinnedProvider | undefined,
  factory: OpenSettings['modelClientFactory'],
): ModelClient {
  if (factory) return factory(profile, model);
  return createModelClient({
    config: provider ? withProvider(profile.config, provider) : profile.config,
    secrets: profile.secrets,
    envFile: profile.home.envFile,
    ...(model ? { modelOverride: model } : {}),
  });
}

/**
 * Hooks that forward to the live session's hooks once `connect` gave them: a new session's agent
 * is opened before its live session exists. Before that, approvals are denied, clarify questions
 * fail and editor files are not attached.
 */
export function forwardingHooks(): { hooks: AgentHooks; connect(target: AgentHooks): void } {
  let target: AgentHooks | undefined;
  const hooks: AgentHooks = {
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
  return { hooks, connect: (t) => (target = t) };
}

/**
 * A live session's store: reads from the profile's SessionDB, writes through its never-blocking
 * writer (profile-writer.ts).
 */
export function liveStore(profile: ProfileRuntime): SessionPersistence {
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
