/**
 * Model providers: which endpoint, which model and which keys one call uses.
 *
 * The named providers are the presets of presets.ts (hosted: OpenRouter, OpenAI, Anthropic,
 * DeepSeek, xAI, Gemini, z.ai, Kimi …; local: Ollama, LM Studio, vLLM, llama.cpp). For a preset:
 * - endpoint: `base_url` (config) when set, else the preset's base-URL variable (`DEEPSEEK_BASE_URL`
 *   …, in the home's `.env` or the environment, as the original reads it), else its default;
 * - keys: `api_key_env` when set, else the first of the preset's key variables that holds a key
 *   (`GLM_API_KEY`, then `ZAI_API_KEY` …). A hosted preset without a key is an error naming the
 *   variable; a local one is called without a key;
 * - a preset the original has but that cannot work here (OAuth logins, Bedrock) is an error
 *   saying why and what to use instead.
 *
 * | provider | endpoint | keys from |
 * |---|---|---|
 * | a preset | its base URL (or `base_url`, or its base-URL variable) | its key variables (or `api_key_env`) |
 * | `custom` | `base_url` (required) | `api_key_env` when set, else no key at all |
 * | `auto` | the first of: openrouter with a key, openai with a key, custom when `base_url` is set |
 *
 * Keys are read with the pool rule of `credential-pool.ts` (`NAME`, `NAME_2`…, comma lists), from
 * the home's secrets first, then the process environment; never from another profile.
 * In `auto` mode a key-based provider always uses its own default endpoint: a `base_url` meant for
 * a local server never receives an OpenRouter/OpenAI key (the original is as careful, see its
 * `runtime_provider.py`). Set `provider: custom` to use `base_url` with `api_key_env`.
 */
import type { FallbackProvider, HermesConfig, ProviderName } from '../config/schema.js';
import { lookupSecret, type Secrets } from '../config/secrets.js';
import { collectKeys, type PooledKey } from './credential-pool.js';
import { ModelError } from './errors.js';
import { presetFor, PROVIDER_PRESETS, type ProviderPreset } from './presets.js';

/** A provider that names one concrete endpoint (a canonical id other than `auto`). */
export type ConcreteProvider = string;

/**
 * The wire format a provider speaks: OpenAI Chat Completions (`/chat/completions`, most
 * providers) or Anthropic Messages (`/v1/messages`).
 */
export type ProviderWire = 'openai-chat' | 'anthropic-messages';

/** Default endpoint, first key variable and wire format of one hosted provider. */
export interface HostedEndpoint {
  baseURL: string;
  keyVar: string;
  wire: ProviderWire;
}

/**
 * Default endpoint, first key variable and wire format of each hosted preset, by id (a view of
 * the preset table for code that needs only these three).
 */
export const HOSTED_PROVIDERS = Object.fromEntries(
  PROVIDER_PRESETS.filter((p) => !p.local && !p.unsupported && p.keyVars.length > 0).map((p) => [
    p.id,
    { baseURL: p.baseURL, keyVar: p.keyVars[0]!, wire: p.wire },
  ]),
) as Readonly<
  Record<'openrouter' | 'openai' | 'anthropic', HostedEndpoint> & Record<string, HostedEndpoint | undefined>
>;

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
  /** Extra HTTP headers the provider wants on every request (e.g. OpenRouter's app name). */
  headers?: Readonly<Record<string, string>>;
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
    `OPENAI_API_KEY in ${where} (or export it; \`hermes auth add openrouter\` does it), or name ` +
    'another provider with its key: model.provider anthropic (ANTHROPIC_API_KEY), deepseek ' +
    '(DEEPSEEK_API_KEY), gemini (GEMINI_API_KEY) … (`hermes model` lists them all); or a local ' +
    'server: model.provider ollama, lmstudio, vllm or llamacpp (or custom with model.base_url).'
  );
}

function authError(provider: string, message: string): ModelError {
  return new ModelError('auth', message, { provider });
}

/**
 * `keys` unchanged, when each is made of printable ASCII only; else an auth error naming the
 * variable, the character and its position (never the key): a character outside it (a zero-width
 * or no-break space from a copy) is never part of a key, and one above U+00FF cannot even be sent
 * in an HTTP header (the call would fail as if the network were down, and be retried).
 */
function checkedKeys(provider: string, keys: PooledKey[], ctx: ResolveContext): PooledKey[] {
  for (const k of keys) {
    const chars = [...k.value];
    const i = chars.findIndex((c) => c < ' ' || c > '~');
    if (i < 0) continue;
    const code = chars[i]!.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw authError(
      provider,
      `The key in ${k.label} holds the character U+${code} at position ${i + 1}, which no API key ` +
        `has (pasted along with it?): fix it in ${envFileName(ctx)}.`,
    );
  }
  return keys;
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
      const keys = checkedKeys(name, collectKeys(keyVar, ctx.secrets, env), ctx);
      const headers = presetFor(name)?.headers;
      if (keys.length > 0) {
        return {
          provider: name,
          baseURL,
          model,
          keyVar,
          keys,
          role,
          wire: 'openai-chat',
          ...(headers ? { headers } : {}),
        };
      }
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
    const keys = keyVar ? checkedKeys('custom', collectKeys(keyVar, ctx.secrets, env), ctx) : [];
    if (keyVar && keys.length === 0) {
      throw authError(
        'custom',
        `Provider "custom" expects its key in ${keyVar}, which is not set: set it in ${envFileName(ctx)}.`,
      );
    }
    return {
      provider: 'custom',
      baseURL: endpointBase(spec.base_url, 'openai-chat'),
      model,
      ...(keyVar ? { keyVar } : {}),
      keys,
      role,
      wire: 'openai-chat',
    };
  }
  const preset = presetFor(spec.provider);
  if (!preset) throw authError(spec.provider, `Unknown provider "${spec.provider}".`);
  return resolvePreset(preset, spec, model, ctx, role);
}

/**
 * A base URL as the SDKs want it: a pasted full endpoint loses its path — `…/chat/completions` on
 * the OpenAI wire, `…/messages` on the Anthropic wire — since the SDK appends it again (and the
 * server answers 404); a trailing `/` goes too.
 */
export function endpointBase(url: string, wire: ProviderWire): string {
  const u = url.trim().replace(/\/+$/, '');
  return (
    wire === 'anthropic-messages'
      ? u.replace(/\/v1\/messages$/, '/v1')
      : u.replace(/\/chat\/completions$/, '')
  ).replace(/\/+$/, '');
}

/** The target of a preset: endpoint and keys under the rules in this file's header. */
function resolvePreset(
  preset: ProviderPreset,
  spec: ProviderSpec,
  model: string,
  ctx: ResolveContext,
  role: string,
): ProviderTarget {
  const env = ctx.env ?? process.env;
  const where = role === 'primary' ? 'model' : 'this fallback_providers entry';
  if (preset.unsupported) throw authError(preset.id, `Provider "${preset.id}": ${preset.unsupported}`);
  const fromVar = preset.baseUrlVar ? lookupSecret(ctx.secrets, preset.baseUrlVar, env) : undefined;
  const baseURL = spec.base_url || fromVar || preset.baseURL;
  if (!baseURL) {
    throw authError(
      preset.id,
      `Provider "${preset.id}" needs your endpoint: set base_url of ${where} in config.yaml` +
        (preset.baseUrlVar ? ` (or ${preset.baseUrlVar} in ${envFileName(ctx)}).` : '.'),
    );
  }
  const named = spec.api_key_env?.trim();
  const vars = named ? [named] : preset.keyVars;
  let keyVar: string | undefined;
  let keys: PooledKey[] = [];
  for (const v of vars) {
    keys = checkedKeys(preset.id, collectKeys(v, ctx.secrets, env), ctx);
    if (keys.length > 0) {
      keyVar = v;
      break;
    }
  }
  if (keys.length === 0 && (preset.keyRequired || named)) {
    const names = vars.join(' or ');
    throw authError(
      preset.id,
      `Provider "${preset.id}" needs an API key: set ${names} in ${envFileName(ctx)} (or export it in the environment)` +
        (preset.keyUrl ? `; keys are made at ${preset.keyUrl}` : '') +
        `. \`hermes auth add ${preset.id}\` saves one.`,
    );
  }
  return {
    provider: preset.id,
    baseURL: endpointBase(baseURL, preset.wire),
    model,
    ...(keyVar ? { keyVar } : {}),
    keys,
    role,
    wire: preset.wire,
    ...(preset.headers ? { headers: preset.headers } : {}),
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
