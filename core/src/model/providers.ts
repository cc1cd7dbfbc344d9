/**
 * Model providers: which endpoint, which model and which keys
 * one call uses.
 *
 * | provider     | endpoint                                  | keys from                                   |
 * |--------------|-------------------------------------------|---------------------------------------------|
 * | `openrouter` | https://openrouter.ai/api/v1 (or base_url) | `OPENROUTER_API_KEY` (or `api_key_env`)     |
 * | `openai`     | https://api.openai.com/v1 (or base_url)    | `OPENAI_API_KEY` (or `api_key_env`)         |
 * | `anthropic`  | https://api.anthropic.com (or base_url), Messages API | `ANTHROPIC_API_KEY` (or `api_key_env`) |
 * | `custom`     | `base_url` (required)                     | `api_key_env` when set, else no key at all  |
 * | `auto`       | the first of: openrouter with a key, openai with a key, custom when `base_url` is set |
 *
 * Keys are read with the pool rule of `credential-pool.ts` (`NAME`, `NAME_2`…, comma lists), from
 * the home's secrets first, then the process environment; never from another profile.
 * In `auto` mode a key-based provider always uses its own default endpoint: a `base_url` meant for
 * a local server never receives an OpenRouter/OpenAI key (the original is as careful, see its
 * `runtime_provider.py`). Set `provider: custom` to use `base_url` with `api_key_env`.
 */
import type { FallbackProvider, HermesConfig, ProviderName } from '../config/schema.js';
import type { Secrets } from '../config/secrets.js';
import { collectKeys, type PooledKey } from './credential-pool.js';
import { ModelError } from './errors.js';

/** A provider that names one concrete endpoint. */
export type ConcreteProvider = Exclude<ProviderName, 'auto'>;

/**
 * The wire format a provider speaks: OpenAI Chat Completions (`/chat/completions`, most
 * providers) or Anthropic Messages (`/v1/messages`).
 */
export type ProviderWire = 'openai-chat' | 'anthropic-messages';

/** Default endpoint, key variable and wire format of the hosted providers. */
export const HOSTED_PROVIDERS = {
  openrouter: { baseURL: 'https://openrouter.ai/api/v1', keyVar: 'OPENROUTER_API_KEY', wire: 'openai-chat' },
  openai: { baseURL: 'https://api.openai.com/v1', keyVar: 'OPENAI_API_KEY', wire: 'openai-chat' },
  anthropic: {
    baseURL: 'https://api.anthropic.com',
    keyVar: 'ANTHROPIC_API_KEY',
    wire: 'anthropic-messages',
  },
} as const satisfies Record<string, { baseURL: string; keyVar: string; wire: ProviderWire }>;

/** One endpoint a call can go to, with everything needed to make it. */
export interface ProviderTarget {
  provider: ConcreteProvider;
  /**
   * Base URL: for `openai-chat` it ends before `/chat/completions`; for `anthropic-messages` it is
   * the API root (`https://api.anthropic.com`, the SDK appends `/v1/messages`).
   */
  baseURL: string;
  /** Wire format of the endpoint. */
  wire: ProviderWire;
  /** Model id; may be empty for `custom` (then the server's only model is used, see client.ts). */
  model: string;
  /** Variable the keys come from; undefined for a keyless `custom` endpoint. */
  keyVar?: string;
  /** Keys in pool order; empty only for a keyless `custom` endpoint. */
  keys: PooledKey[];
  /** `primary` or `fallback 1`, `fallback 2`, … */
  role: string;
}

/** How one provider is asked for: `model:` of config.yaml or one `fallback_providers` entry. */
export interface ProviderSpec {
  provider: ProviderName;
  model?: string;
  base_url?: string;
  api_key_env?: string;
}

/** Where to look keys up and what to name in messages. */
export interface ResolveContext {
  secrets: Secrets;
  env?: NodeJS.ProcessEnv;
  /** Path of the home's `.env`, named in messages (default: "the home's .env file"). */
  envFile?: string;
}

const envFileName = (ctx: ResolveContext) => ctx.envFile ?? "the home's .env file";

/** The message when no provider can be used at all. */
export function noProviderMessage(envFile?: string): string {
  const where = envFile ?? "the home's .env file";
  return (
    'No model provider is configured. Set OPENROUTER_API_KEY (https://openrouter.ai/keys) or ' +
    `OPENAI_API_KEY in ${where} (or export it), or set model.base_url in config.yaml ` +
    '(with model.provider: custom) to use a local OpenAI-compatible server such as Ollama or llama.cpp.'
  );
}

function authError(provider: string, message: string): ModelError {
  return new ModelError('auth', message, { provider });
}

/**
 * Resolves one provider spec to a target.
 * @param fallbackModel model used when the spec names none.
 * @throws ModelError kind `auth` when the provider cannot be used (no key, no base_url), with a
 *   message naming the variable and the .env file.
 */
export function resolveTarget(
  spec: ProviderSpec,
  fallbackModel: string,
  ctx: ResolveContext,
  role = 'primary',
): ProviderTarget {
  const env = ctx.env ?? process.env;
  const model = spec.model?.trim() || fallbackModel;
  if (spec.provider === 'auto') {
    for (const name of ['openrouter', 'openai'] as const) {
      const { baseURL, keyVar } = HOSTED_PROVIDERS[name];
      const keys = collectKeys(keyVar, ctx.secrets, env);
      if (keys.length > 0) return { provider: name, baseURL, model, keyVar, keys, role, wire: 'openai-chat' };
    }
    if (spec.base_url) return resolveTarget({ ...spec, provider: 'custom' }, fallbackModel, ctx, role);
    throw authError('auto', noProviderMessage(ctx.envFile));
  }
  if (spec.provider === 'custom') {
    if (!spec.base_url) {
      throw authError(
        'custom',
        `Provider "custom" needs a base URL: set ${role === 'primary' ? 'model.base_url' : 'base_url of this fallback_providers entry'} in config.yaml (e.g. http://127.0.0.1:11434/v1 for Ollama).`,
      );
    }
    const keyVar = spec.api_key_env?.trim() || undefined;
    const keys = keyVar ? collectKeys(keyVar, ctx.secrets, env) : [];
    if (keyVar && keys.length === 0) {
      throw authError(
        'custom',
        `Provider "custom" expects its key in ${keyVar}, which is not set: set it in ${envFileName(ctx)}.`,
      );
    }
    return {
      provider: 'custom',
      baseURL: spec.base_url,
      model,
      ...(keyVar ? { keyVar } : {}),
      keys,
      role,
      wire: 'openai-chat',
    };
  }
  const hosted = HOSTED_PROVIDERS[spec.provider];
  const keyVar = spec.api_key_env?.trim() || hosted.keyVar;
  const keys = collectKeys(keyVar, ctx.secrets, env);
  if (keys.length === 0) {
    throw authError(
      spec.provider,
      `Provider "${spec.provider}" needs an API key: set ${keyVar} in ${envFileName(ctx)} (or export it in the environment).`,
    );
  }
  return {
    provider: spec.provider,
    baseURL: spec.base_url ?? hosted.baseURL,
    model,
    keyVar,
    keys,
    role,
    wire: hosted.wire,
  };
}

/** The primary target of a configuration (`model:`), with `modelOverride` (e.g. `-m`) applied. */
export function resolvePrimary(
  config: HermesConfig,
  ctx: ResolveContext,
  modelOverride?: string,
): ProviderTarget {
  const m = config.model;
  return resolveTarget(
    { provider: m.provider, model: modelOverride, base_url: m.base_url, api_key_env: m.api_key_env },
    m.default,
    ctx,
  );
}

/**
 * The `fallback_providers` in order. An entry that cannot be used (no key…) becomes the
 * ModelError saying why, so the client can skip it and still report it.
 */
export function resolveFallbacks(
  fallbacks: readonly FallbackProvider[],
  primaryModel: string,
  ctx: ResolveContext,
): Array<ProviderTarget | ModelError> {
  return fallbacks.map((fb, i) => {
    try {
      return resolveTarget(fb, primaryModel, ctx, `fallback ${i + 1}`);
    } catch (err) {
      return err as ModelError;
    }
  });
}
