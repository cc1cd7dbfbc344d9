/**
 * RPC handlers of `/model`: `model.list` (the configured model and fallbacks, and every named
 * provider for completion) and `model.set` (switch the model, and with `provider` or a
 * `provider/model` text the provider too). A switch is validated before anything is written: an
 * unknown provider, one that cannot run here, or one without its key is refused naming the
 * provider or the variable. Like `/model ID` before providers could be switched, the switch becomes
 * the profile's default (config.yaml) and, with `session_id`, that session's pinned model and
 * provider (a later switch in another session moves the default, not this one).
 */
import { ConfigError, setConfigValue, unsetConfigValue } from '@hermes/core/config';
import {
  applyEdits,
  contextWindowFor,
  createModelClient,
  effectiveProvider,
  ModelError,
  modelIdProblem,
  normalizeProviderName,
  parseModelSpec,
  providerStatuses,
  resolvePrimary,
  switchEdits,
  unknownProviderMessage,
  type ModelSpec,
} from '@hermes/core/model';
import { RpcErrorCode } from '@hermes/core/protocol';
import { domainRpcError } from '../rpc/domain-errors.js';
import type { HandlerRegistry } from '../rpc/types.js';
import { RpcMethodError } from '../rpc/types.js';
import type { ProfileRuntime } from './profile-runtime.js';
import type { SessionRegistry } from './session-registry.js';

/** How long `/model` waits for the provider's model list, ms. */
export const MODEL_LIST_TIMEOUT_MS = 2_000;

/**
 * A warning when the profile's provider lists its models and `model` is not among them;
 * undefined when it is, or when the list cannot be had within `MODEL_LIST_TIMEOUT_MS`.
 */
async function unlistedModelWarning(profile: ProfileRuntime, model: string): Promise<string | undefined> {
  let client;
  try {
    client = createModelClient({
      config: profile.config,
      secrets: profile.secrets,
      envFile: profile.home.envFile,
    });
  } catch {
    return undefined;
  }
  const ids = await client.listModels(AbortSignal.timeout(MODEL_LIST_TIMEOUT_MS));
  if (!ids || ids.length === 0 || ids.includes(model)) return undefined;
  const some = ids.slice(0, 5).join(', ') + (ids.length > 5 ? ', …' : '');
  return `Warning: ${client.baseURL ?? client.provider} does not list "${model}" (it has ${some}); the next turn may fail.`;
}

function invalid(message: string): never {
  throw new RpcMethodError(RpcErrorCode.InvalidParams, message);
}

/** The switch `model.set` asks for, read against the profile's current provider. */
function requestedSpec(p: { model: string; provider?: string | undefined }, current: string): ModelSpec {
  let spec: ModelSpec;
  if (p.provider === undefined) spec = parseModelSpec(p.model, current);
  else {
    const id = normalizeProviderName(p.provider);
    if (!id) invalid(`provider: ${unknownProviderMessage(p.provider)}`);
    spec = { provider: id, model: p.model };
  }
  const problem = modelIdProblem(spec.model);
  if (problem) invalid(`model: ${problem}`);
  return spec;
}

/** Registers `model.list` and `model.set` on the daemon's dispatcher. */
export function registerModelHandlers(rpc: HandlerRegistry, sessions: SessionRegistry): void {
  rpc.register('model.list', async (p, conn) => {
    const profile = sessions.profile(p.profile ?? conn.profile);
    const config = profile.config;
    const current = config.model.default;
    const seen = new Set<string>();
    const models = [
      { id: current, provider: config.model.provider },
      ...config.fallback_providers.map((f) => ({ id: f.model ?? current, provider: f.provider })),
    ]
      .filter((m) => m.id && !seen.has(`${m.provider}/${m.id}`) && seen.add(`${m.provider}/${m.id}`))
      .map((m) => ({ ...m, context_window: contextWindowFor(m.id, config) }));
    const providers = providerStatuses(config, profile.secrets).map((s) => ({
      id: s.id,
      label: s.label,
      aliases: [...s.aliases],
      kind: s.kind,
      key_set: s.keySet,
      models: [...s.defaultModels],
      aggregator: s.aggregator,
    }));
    return { models, current, provider: effectiveProvider(config, profile.secrets), providers };
  });

  // `/model ID` or `/model provider/model`: the session switches from its next turn (pinned,
  // status bars told at once) and the choice becomes the profile's default for new sessions, as
  // in Python Hermes
  rpc.register('model.set', async (p, conn) => {
    const profile = sessions.profile(p.profile ?? conn.profile);
    const config = profile.config;
    // read against the provider in use: on OpenRouter (also through `auto`) vendor/model is its model
    const spec = requestedSpec(p, effectiveProvider(config, profile.secrets));
    const edits = switchEdits(config, spec);
    const next = applyEdits(config, edits);
    if (!next.model.default) invalid(`No model named: write /model ${spec.provider ?? 'provider'}/<model>.`);
    if (next.model.provider !== config.model.provider) {
      try {
        resolvePrimary(next, { secrets: profile.secrets, envFile: profile.home.envFile });
      } catch (err) {
        if (err instanceof ModelError) invalid(err.message);
        throw err;
      }
    }
    try {
      for (const e of edits) {
        if (e.value === undefined) unsetConfigValue(profile.home, e.key);
        else setConfigValue(profile.home, e.key, e.value);
      }
    } catch (err) {
      throw (err instanceof ConfigError && domainRpcError(err)) || err;
    }
    profile.reload();
    const model = next.model.default;
    const live =
      p.session_id && profile.name === conn.profile
        ? sessions.pinModel(conn.profile, p.session_id, model, {
            provider: next.model.provider,
            ...(next.model.base_url ? { base_url: next.model.base_url } : {}),
            ...(next.model.api_key_env ? { api_key_env: next.model.api_key_env } : {}),
          })
        : undefined;
    const warning = await unlistedModelWarning(profile, model);
    const scope = live
      ? 'this session from its next turn; also the default for new sessions'
      : 'the default for new sessions';
    const switched = next.model.provider !== config.model.provider ? ` on ${next.model.provider}` : '';
    return {
      model,
      provider: next.model.provider,
      message: `Model: ${model}${switched} (${scope})${warning ? `\n${warning}` : ''}`,
      ...(warning ? { warning } : {}),
    };
  });
}
