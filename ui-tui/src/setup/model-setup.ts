/**
 * First-run model setup, without Ink: deciding whether the profile has a usable model, and saving
 * what the user chose through the daemon (`config.set` for `model.*`, `secrets.set` for the key).
 * The TUI never writes the profile's files itself and never reads a key back.
 */
import type { DaemonClientLike } from '@hermes/client';

/** The hosted providers the setup offers, with their key variable and a suggested model. */
export const HOSTED = {
  openrouter: {
    label: 'OpenRouter',
    keyVar: 'OPENROUTER_API_KEY',
    keyUrl: 'https://openrouter.ai/keys',
    suggestedModel: 'anthropic/claude-sonnet-4',
  },
  openai: {
    label: 'OpenAI',
    keyVar: 'OPENAI_API_KEY',
    keyUrl: 'https://platform.openai.com/api-keys',
    suggestedModel: 'gpt-4.1-mini',
  },
} as const;

/** A hosted provider's name. */
export type HostedProvider = keyof typeof HOSTED;

/** The `model:` section of a config, as much of it as the setup reads. */
export interface ModelSection {
  default?: string;
  provider?: string;
  base_url?: string;
  api_key_env?: string;
}

/**
 * The variable a custom server's API key is saved under (in the profile's `.env`), named by
 * `model.api_key_env` so the model layer sends it to that server.
 */
export const CUSTOM_KEY_VAR = 'CUSTOM_API_KEY';

/** What the user chose in the setup; a server's `key` is optional (many local servers take none). */
export type SetupChoice =
  | { kind: 'server'; baseUrl: string; model: string; key?: string }
  | { kind: 'hosted'; provider: HostedProvider; key: string; model: string };

/** Why the profile needs a setup, and what it has now. */
export interface ModelStatus {
  ready: boolean;
  model: ModelSection;
  /** Which key variables have a value (in the profile's `.env` or the daemon's environment). */
  keys: Record<string, boolean>;
}

/** Key variables that matter for a `model:` section. */
export function keyNamesFor(model: ModelSection): string[] {
  const names: string[] = [HOSTED.openrouter.keyVar, HOSTED.openai.keyVar];
  const extra = model.api_key_env?.trim();
  if (extra && /^[A-Z][A-Z0-9_]{0,63}$/.test(extra) && !names.includes(extra)) names.push(extra);
  return names;
}

/**
 * Whether a model call can be made with this configuration, following the provider rules of the
 * daemon (core/src/model/providers.ts): a local/custom server needs `base_url` (its only model is
 * used when none is named); a hosted provider needs its key and a model id.
 */
export function modelReady(model: ModelSection, keys: Record<string, boolean>): boolean {
  const has = (name: string | undefined): boolean => Boolean(name && keys[name]);
  const named = Boolean(model.default?.trim());
  const ownKey = model.api_key_env?.trim() || undefined;
  switch (model.provider ?? 'auto') {
    case 'custom':
      return Boolean(model.base_url);
    case 'openrouter':
      return named && has(ownKey ?? HOSTED.openrouter.keyVar);
    case 'openai':
      return named && has(ownKey ?? HOSTED.openai.keyVar);
    default:
      if (has(HOSTED.openrouter.keyVar) || has(HOSTED.openai.keyVar)) return named;
      return Boolean(model.base_url);
  }
}

/**
 * Reads the profile's model settings and key presence from the daemon.
 * @returns null when the daemon cannot tell (an older daemon, a broken config.yaml: the attach
 *   reports that), so no setup is forced on the user.
 */
export async function readModelStatus(client: DaemonClientLike): Promise<ModelStatus | null> {
  try {
    const { value } = await client.request('config.get', { key: 'model' });
    const model = (typeof value === 'object' && value !== null ? value : {}) as ModelSection;
    const { set } = await client.request('secrets.status', { names: keyNamesFor(model) });
    return { ready: modelReady(model, set), model, keys: set };
  } catch {
    return null;
  }
}

/** The `config.set` writes for a choice, in order (`model.base_url` last for a server). */
export function configWrites(choice: SetupChoice): Array<{ key: string; value: string }> {
  if (choice.kind === 'server') {
    return [
      { key: 'model.provider', value: 'custom' },
      ...(choice.key ? [{ key: 'model.api_key_env', value: CUSTOM_KEY_VAR }] : []),
      { key: 'model.base_url', value: choice.baseUrl },
      { key: 'model.default', value: choice.model },
    ];
  }
  return [
    { key: 'model.provider', value: choice.provider },
    { key: 'model.default', value: choice.model },
  ];
}

/**
 * Saves a choice through the daemon: the key first (`secrets.set`, written 0600 into the
 * profile's `.env`; a server's key as `CUSTOM_KEY_VAR`, named by `model.api_key_env`), then the
 * `model.*` settings. A hosted provider must not inherit a local `base_url` (the daemon would
 * send the key there), so an existing one is dropped by rewriting the `model` section without
 * it; a server chosen without a key drops an old `api_key_env` the same way.
 */
export async function saveModelSetup(
  client: DaemonClientLike,
  choice: SetupChoice,
  current: ModelSection = {},
): Promise<void> {
  if (choice.kind === 'server') {
    if (choice.key) await client.request('secrets.set', { name: CUSTOM_KEY_VAR, value: choice.key });
    else if (current.api_key_env) {
      const rest: Record<string, unknown> = { ...current };
      delete rest.api_key_env;
      await client.request('config.set', {
        key: 'model',
        value: { ...rest, provider: 'custom', base_url: choice.baseUrl, default: choice.model },
      });
      return;
    }
  }
  if (choice.kind === 'hosted') {
    await client.request('secrets.set', { name: HOSTED[choice.provider].keyVar, value: choice.key });
    if (current.base_url || current.api_key_env) {
      const rest: Record<string, unknown> = { ...current };
      delete rest.base_url;
      delete rest.api_key_env;
      await client.request('config.set', {
        key: 'model',
        value: { ...rest, provider: choice.provider, default: choice.model },
      });
      return;
    }
  }
  for (const w of configWrites(choice)) await client.request('config.set', w);
}

/** One line saying what was set up (never the key). */
export function describeChoice(choice: SetupChoice): string {
  return choice.kind === 'server'
    ? `Model set up: ${choice.model || '(the server’s model)'} at ${choice.baseUrl}${choice.key ? ` (key saved as ${CUSTOM_KEY_VAR} in the profile’s .env)` : ''}`
    : `Model set up: ${choice.model} on ${HOSTED[choice.provider].label} (key saved as ${HOSTED[choice.provider].keyVar} in the profile’s .env)`;
}
