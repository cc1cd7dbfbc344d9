/**
 * What `hermes model`, `hermes auth` and `/model` show and do with the preset table: which
 * providers have a key, which models a provider offers (its `/models` endpoint with a short
 * timeout, else the preset's default list), whether a key works (one `GET /models` call), how
 * `provider/model` text is read, and the config.yaml edit of a provider/model switch.
 */
import type { HermesConfig } from '../config/schema.js';
import type { Secrets } from '../config/secrets.js';
import { collectKeys } from './credential-pool.js';
import { ModelError } from './errors.js';
import { normalizeProviderName, presetFor, PROVIDER_PRESETS, type ProviderPreset } from './presets.js';
import { endpointBase, resolveTarget, type ProviderTarget } from './providers.js';

/** Milliseconds a models-endpoint call or a key check may take. */
export const MODEL_LIST_TIMEOUT_MS = 4000;

/** One provider as `hermes model` lists it. */
export interface ProviderStatus {
  id: string;
  label: string;
  aliases: readonly string[];
  /** `local` (a server on this machine), `hosted`, or `unsupported` (accepted name, cannot run here). */
  kind: 'local' | 'hosted' | 'unsupported';
  /** The variable holding its key, when one is set (its value is never exposed). */
  keyVar?: string;
  /** Whether a key is set (always false for keyless local servers without one). */
  keySet: boolean;
  /** Whether it is the configured `model.provider`. */
  current: boolean;
  /** The preset's short model list (may be empty). */
  defaultModels: readonly string[];
  /** Its model ids are `vendor/model` (see `parseModelSpec`). */
  aggregator: boolean;
}

/** The variable of `preset` that holds a key in these secrets/env, if any. */
export function keyVarSet(
  preset: ProviderPreset,
  secrets: Secrets,
  env: NodeJS.ProcessEnv,
): string | undefined {
  return preset.keyVars.find((v) => collectKeys(v, secrets, env).length > 0);
}

/** Every preset with whether it has a key, hosted first, then local, then unsupported ones. */
export function providerStatuses(
  config: HermesConfig,
  secrets: Secrets,
  env: NodeJS.ProcessEnv = process.env,
): ProviderStatus[] {
  const rank = { hosted: 0, local: 1, unsupported: 2 } as const;
  return PROVIDER_PRESETS.map((p): ProviderStatus => {
    const keyVar = keyVarSet(p, secrets, env);
    return {
      id: p.id,
      label: p.label,
      aliases: p.aliases,
      kind: p.unsupported ? 'unsupported' : p.local ? 'local' : 'hosted',
      ...(keyVar ? { keyVar } : {}),
      keySet: keyVar !== undefined,
      current: config.model.provider === p.id,
      defaultModels: p.defaultModels,
      aggregator: p.aggregator === true,
    };
  }).sort((a, b) => rank[a.kind] - rank[b.kind]);
}

/** Models of one provider and where the list came from. */
export interface ModelListing {
  provider: string;
  models: string[];
  /** `endpoint`: the provider's `/models`; `defaults`: the preset's list (with `error` when the endpoint failed). */
  source: 'endpoint' | 'defaults';
  /** Why the endpoint could not be used (unreachable, HTTP status, no key …). */
  error?: string;
}

function authHeaders(
  t: Pick<ProviderTarget, 'wire' | 'headers'>,
  key: string | undefined,
): Record<string, string> {
  const h: Record<string, string> = { ...t.headers };
  if (key && t.wire === 'anthropic-messages') {
    h['x-api-key'] = key;
    h['anthropic-version'] = '2023-06-01';
  } else if (key) h.authorization = `Bearer ${key}`;
  return h;
}

/**
 * `GET …/models` of an endpoint; the Anthropic API root gets `/v1/models` (a base written with
 * `/v1`, or pasted as the full endpoint, is read as its root, as for messages).
 */
function modelsUrl(t: Pick<ProviderTarget, 'wire' | 'baseURL'>): string {
  const base = endpointBase(t.baseURL, t.wire);
  return t.wire === 'anthropic-messages' ? `${base.replace(/\/v1$/, '')}/v1/models` : `${base}/models`;
}

/**
 * Lists the models of `provider` (a canonical id or alias) for this config and secrets: the
 * provider's models endpoint when it has one (within `timeoutMs`), else — or when that fails —
 * its default list. Never throws for a provider that cannot be reached; throws ModelError for an
 * unknown or unsupported provider.
 */
export async function listProviderModels(
  provider: string,
  opts: {
    config: HermesConfig;
    secrets: Secrets;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
    fetch?: typeof fetch;
  },
): Promise<ModelListing> {
  const id = normalizeProviderName(provider) ?? provider;
  const preset = presetFor(id);
  const m = opts.config.model;
  const spec =
    id === m.provider
      ? { provider: id, base_url: m.base_url, api_key_env: m.api_key_env }
      : { provider: id, ...(id === 'custom' ? { base_url: m.base_url } : {}) };
  const defaults = (error?: string): ModelListing => ({
    provider: id,
    models: [...(preset?.defaultModels ?? [])],
    source: 'defaults',
    ...(error ? { error } : {}),
  });
  if (preset?.unsupported)
    throw new ModelError('auth', `Provider "${id}": ${preset.unsupported}`, { provider: id });
  if (preset && !preset.modelsEndpoint) return defaults();
  let target: ProviderTarget;
  try {
    target = resolveTarget(spec, '', { secrets: opts.secrets, env: opts.env ?? process.env });
  } catch (err) {
    if (!preset && id !== 'custom') throw err;
    return defaults((err as Error).message);
  }
  const doFetch = opts.fetch ?? fetch;
  try {
    const res = await doFetch(modelsUrl(target), {
      headers: authHeaders(target, target.keys[0]?.value),
      signal: AbortSignal.timeout(opts.timeoutMs ?? MODEL_LIST_TIMEOUT_MS),
    });
    if (!res.ok) return defaults(`${modelsUrl(target)} answered HTTP ${res.status}`);
    const body = (await res.json()) as { data?: Array<{ id?: unknown }>; models?: Array<{ id?: unknown }> };
    const ids = (body.data ?? body.models ?? [])
      .map((x) => x.id)
      .filter((x): x is string => typeof x === 'string');
    return { provider: id, models: ids, source: 'endpoint' };
  } catch (err) {
    const why = (err as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable';
    return defaults(`${modelsUrl(target)}: ${why}`);
  }
}

/** The outcome of a key check: it works, the provider refused it, or it could not be asked. */
export interface KeyCheck {
  result: 'ok' | 'rejected' | 'unreachable' | 'unknown';
  /** One line for people (never the key). */
  detail: string;
}

/**
 * Checks `key` against `preset` with one `GET /models` (`/v1/models` on the Anthropic wire), at
 * `baseURL` (default: the preset's), within `timeoutMs`: 2xx → ok, 401/403 → rejected, no answer →
 * unreachable, another status → unknown (the endpoint answered but said nothing about the key).
 */
export async function checkProviderKey(
  preset: ProviderPreset,
  key: string,
  opts: { baseURL?: string; timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<KeyCheck> {
  const t = {
    wire: preset.wire,
    baseURL: opts.baseURL || preset.baseURL,
    ...(preset.headers ? { headers: preset.headers } : {}),
  };
  const url = modelsUrl(t);
  try {
    const res = await (opts.fetch ?? fetch)(url, {
      headers: authHeaders(t, key),
      signal: AbortSignal.timeout(opts.timeoutMs ?? MODEL_LIST_TIMEOUT_MS),
    });
    await res.body?.cancel();
    if (res.ok) return { result: 'ok', detail: `${url} accepted the key` };
    if (res.status === 401 || res.status === 403)
      return { result: 'rejected', detail: `${url} refused the key (HTTP ${res.status})` };
    return { result: 'unknown', detail: `${url} answered HTTP ${res.status}; the key was not checked` };
  } catch (err) {
    const why = (err as Error).name === 'TimeoutError' ? 'did not answer in time' : 'could not be reached';
    return { result: 'unreachable', detail: `${url} ${why}` };
  }
}

/**
 * The provider a configuration uses: `model.provider`, or for `auto` the one it picks (the
 * configured name when nothing can be picked).
 */
export function effectiveProvider(
  config: HermesConfig,
  secrets: Secrets,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (config.model.provider !== 'auto') return config.model.provider;
  try {
    return resolveTarget({ provider: 'auto', base_url: config.model.base_url }, '', { secrets, env })
      .provider;
  } catch {
    return 'auto';
  }
}

/** A model switch read from text: the provider (canonical id) when one was named, and the model. */
export interface ModelSpec {
  provider?: string;
  model: string;
}

/**
 * Reads `provider/model` (or a bare model id). The part before the first `/` is a provider when
 * it is a provider id or alias — except on an aggregator (`current`: OpenRouter, Hugging Face …),
 * whose own model ids are `vendor/model`: there `anthropic/claude-…` stays that aggregator's model,
 * and only a local server, another aggregator, `custom` or the aggregator's own id switch
 * (`openrouter/anthropic/claude-…`). With `strict` (the CLI's `hermes model set`), the first part
 * is always read as a provider.
 * @throws Error naming the closest ids when `strict` and the first part is no provider.
 */
export function parseModelSpec(text: string, current?: string, strict = false): ModelSpec {
  const t = text.trim();
  const slash = t.indexOf('/');
  const head = slash < 0 ? t : t.slice(0, slash);
  // `Anthropic / claude-x`: spaces around the slash are not part of the model id
  const rest = slash < 0 ? '' : t.slice(slash + 1).trim();
  const id = normalizeProviderName(head);
  if (strict) {
    if (!id) throw new Error(`unknown provider "${head}"`);
    return { provider: id, model: rest };
  }
  if (slash < 0 || !id || id === 'auto') return { model: t };
  const cur = current ? presetFor(current) : undefined;
  if (cur?.aggregator && id !== cur.id) {
    const target = presetFor(id);
    if (!(id === 'custom' || target?.local || target?.aggregator)) return { model: t };
  }
  return { provider: id, model: rest };
}

/**
 * Why `model` cannot be a model id, or undefined when it can: ids are sent to providers as they
 * are, so whitespace and control characters (a pasted line, a stray tab) are refused.
 */
export function modelIdProblem(model: string): string | undefined {
  const bad = /[\s\p{Cc}\p{Cf}]/u.exec(model);
  if (!bad) return undefined;
  const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `model id "${model.replace(/[\p{Cc}\p{Cf}]/gu, '?')}" contains U+${code} (a space or control character): model ids have none`;
}

/** One config.yaml edit of a switch: a key to set, or to remove (`value` undefined). */
export interface ConfigEdit {
  key: string;
  value?: string;
}

/**
 * The config.yaml edits of switching to `spec`: `model.provider` when it changes (then
 * `model.base_url` and `model.api_key_env` go, since they belonged to the old provider — unless
 * the new one is `custom`), and `model.default` (the preset's first default model when only a
 * provider is named and the current model is not its; kept otherwise).
 */
export function switchEdits(config: HermesConfig, spec: ModelSpec): ConfigEdit[] {
  const edits: ConfigEdit[] = [];
  const m = config.model;
  const provider = spec.provider ?? m.provider;
  const changed = provider !== m.provider;
  if (changed) {
    edits.push({ key: 'model.provider', value: provider });
    if (provider !== 'custom') {
      if (m.base_url) edits.push({ key: 'model.base_url' });
      if (m.api_key_env) edits.push({ key: 'model.api_key_env' });
    }
  }
  const model = spec.model || (changed ? presetFor(provider)?.defaultModels[0] : undefined);
  if (model && model !== m.default) edits.push({ key: 'model.default', value: model });
  return edits;
}

/**
 * The config a switch would produce (the edits applied to a copy), for validating it before
 * anything is written.
 */
export function applyEdits(config: HermesConfig, edits: readonly ConfigEdit[]): HermesConfig {
  const model: Record<string, unknown> = { ...config.model };
  for (const e of edits) {
    const k = e.key.slice('model.'.length);
    if (e.value === undefined) delete model[k];
    else model[k] = e.value;
  }
  return { ...config, model: model as HermesConfig['model'] };
}
