/**
 * Named model providers ("presets"): one table of every provider `model.provider` can name, with
 * its endpoint, key variables, wire format, model list and capabilities. Adding a provider is a
 * data change in one of the family files (presets-hosted.ts, presets-local.ts); this file holds
 * the shape and the lookups. Zod-free and free of I/O, so the config schema and the CLI can use it.
 *
 * Names: each preset has a canonical `id` and `aliases` (the original Python Hermes' provider ids
 * and common spellings). `normalizeProviderName` maps any of them, in any case, to the id;
 * config.yaml keeps what the user wrote and the loaded config holds the canonical id.
 */
import { HOSTED_PRESETS } from './presets-hosted.js';
import { LOCAL_PRESETS } from './presets-local.js';

/** The wire format a provider speaks (see `ProviderTarget.wire`). */
export type PresetWire = 'openai-chat' | 'anthropic-messages';

/** One named provider. */
export interface ProviderPreset {
  /** Canonical id, as written in `model.provider` and `fallback_providers[].provider`. */
  id: string;
  /** Display name. */
  label: string;
  /** Other names accepted for it (the original's provider ids, spellings); lower case. */
  aliases: readonly string[];
  /**
   * Default base URL: for `openai-chat` it ends before `/chat/completions`; for
   * `anthropic-messages` it is the API root. Empty when the user must give one (`model.base_url`).
   */
  baseURL: string;
  /** A variable (in the home's `.env` or the environment) that overrides `baseURL`, as in the original. */
  baseUrlVar?: string;
  /**
   * Variables the keys come from, in order: the first one that holds a key is used (with the pool
   * rule of credential-pool.ts). The first is the one `hermes auth add` writes. Empty: no key.
   */
  keyVars: readonly string[];
  /** Whether calls need a key (false for local servers: a key is sent only when one is set). */
  keyRequired: boolean;
  /** Wire format of the endpoint. */
  wire: PresetWire;
  /** Whether `GET <baseURL>/models` lists the models (else only `defaultModels` are known). */
  modelsEndpoint: boolean;
  /** A short list of well-known model ids, first = the suggested default; may be empty. */
  defaultModels: readonly string[];
  /** What the provider's API accepts (informational; the model decides in the end). */
  supports: { tools: boolean; images: boolean; reasoning: boolean };
  /** Extra HTTP headers sent with every request. */
  headers?: Readonly<Record<string, string>>;
  /** A server on this machine (keyless by default). */
  local?: boolean;
  /** Serves many vendors' models under `vendor/model` ids (OpenRouter and the like). */
  aggregator?: boolean;
  /** Where a key is made, named in messages. */
  keyUrl?: string;
  /**
   * Set when the original accepts this provider but it cannot work here (an OAuth login, AWS
   * SigV4): the reason and what to do instead, shown as the error of every call.
   */
  unsupported?: string;
}

/** Every preset: hosted first, then local; ids unique. */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = [...HOSTED_PRESETS, ...LOCAL_PRESETS];

/** The two names that are not presets: `custom` (any base URL) and `auto` (the first with a key). */
export const SPECIAL_PROVIDERS = ['custom', 'auto'] as const;

/** Aliases of the special names (the original's spellings of a local endpoint). */
const SPECIAL_ALIASES: Readonly<Record<string, string>> = { local: 'custom', 'custom-endpoint': 'custom' };

const byName = new Map<string, string>();
for (const p of PROVIDER_PRESETS) {
  byName.set(p.id, p.id);
  for (const a of p.aliases) byName.set(a, p.id);
}
for (const s of SPECIAL_PROVIDERS) byName.set(s, s);
for (const [a, id] of Object.entries(SPECIAL_ALIASES)) byName.set(a, id);

const presetById = new Map(PROVIDER_PRESETS.map((p) => [p.id, p]));

/** Every canonical provider id: the presets' ids, then `custom` and `auto`. */
export const PROVIDER_IDS: readonly string[] = [...PROVIDER_PRESETS.map((p) => p.id), ...SPECIAL_PROVIDERS];

/** Every accepted name (ids and aliases), sorted. */
export const PROVIDER_NAMES: readonly string[] = [...byName.keys()].sort();

/**
 * The canonical id for a provider name or alias (case and surrounding spaces ignored, `_` read as
 * `-`), or undefined when no provider has that name.
 */
export function normalizeProviderName(name: string): string | undefined {
  const key = name.trim().toLowerCase();
  return byName.get(key) ?? byName.get(key.replace(/_/g, '-'));
}

/** The preset with canonical id `id` (undefined for `custom`, `auto` and unknown ids). */
export function presetFor(id: string): ProviderPreset | undefined {
  return presetById.get(id);
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/**
 * Up to `n` canonical ids closest to an unknown name (edit distance over ids and aliases, and
 * names that start with it), for "did you mean" messages.
 */
export function closestProviderIds(name: string, n = 3): string[] {
  const key = name.trim().toLowerCase();
  const scored = new Map<string, number>();
  for (const [alias, id] of byName) {
    const d = alias.startsWith(key) || key.startsWith(alias) ? 1 : distance(key, alias);
    scored.set(id, Math.min(scored.get(id) ?? Infinity, d));
  }
  return [...scored]
    .filter(([, d]) => d <= Math.max(2, Math.floor(key.length / 2)))
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([id]) => id);
}

/** The message for an unknown provider name: the name, the key it came from, the closest ids. */
export function unknownProviderMessage(name: string): string {
  const near = closestProviderIds(name);
  return (
    `unknown provider "${name}"` +
    (near.length > 0 ? ` (did you mean ${near.map((s) => `"${s}"`).join(', ')}?)` : '') +
    '; `hermes model` lists the providers'
  );
}
