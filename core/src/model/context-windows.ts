/**
 * Context window sizes of known models, used to decide when to compress history
 * (compression triggers at `compression.threshold` of the window).
 *
 * Lookup order of `contextWindowFor`: `config.model.context_length` (the user knows best) → the
 * table below → `DEFAULT_CONTEXT_WINDOW`. Model ids are matched case-insensitively after dropping a
 * vendor prefix (`openai/gpt-4o` → `gpt-4o`) and an Ollama tag (`llama3.1:8b` → `llama3.1`); the
 * first matching pattern wins, so specific patterns come before general ones.
 */
import type { HermesConfig } from '../config/schema.js';

/** Window assumed for a model nobody told us about, in tokens. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** Known models: pattern over the normalised id → window in tokens (published provider limits). */
export const KNOWN_CONTEXT_WINDOWS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-5/, 400_000],
  [/^gpt-4o/, 128_000],
  [/^gpt-4-turbo/, 128_000],
  [/^gpt-4-32k/, 32_768],
  [/^gpt-4(?:-\d{4})?$/, 8_192],
  [/^gpt-3\.5-turbo/, 16_385],
  [/^o[134](?:-|$)/, 200_000],
  [/^claude-(?:opus|sonnet)-4/, 200_000],
  [/^claude/, 200_000],
  [/^gemini-(?:1\.5-pro)/, 2_097_152],
  [/^gemini/, 1_048_576],
  [/^(?:meta-)?llama-?3\.[1-3]/, 128_000],
  [/^(?:meta-)?llama-?4/, 1_000_000],
  [/^(?:meta-)?llama-?3/, 8_192],
  [/^deepseek/, 128_000],
  [/^qwen3/, 131_072],
  [/^qwen2\.5/, 32_768],
  [/^mistral-large/, 128_000],
  [/^mistral-nemo/, 128_000],
  [/^grok/, 131_072],
  [/^hermes-?[34]/, 128_000],
];

/** `openai/gpt-4o` → `gpt-4o`; `llama3.1:8b` → `llama3.1`; lower case. */
export function normaliseModelId(model: string): string {
  const noVendor = model.trim().toLowerCase().split('/').pop() ?? '';
  return noVendor.split(':')[0] ?? '';
}

/** Window of a known model id, or undefined. */
export function knownContextWindow(model: string): number | undefined {
  const id = normaliseModelId(model);
  for (const [pattern, tokens] of KNOWN_CONTEXT_WINDOWS) if (pattern.test(id)) return tokens;
  return undefined;
}

/**
 * The context window of `model` in tokens: `config.model.context_length` when set (it applies to
 * whatever model runs under this config), else the known-models table, else 128,000.
 */
export function contextWindowFor(model: string, config?: Pick<HermesConfig, 'model'>): number {
  return config?.model.context_length ?? knownContextWindow(model) ?? DEFAULT_CONTEXT_WINDOW;
}
