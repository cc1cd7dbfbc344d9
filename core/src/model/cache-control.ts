/**
 * Prompt-cache breakpoints for Anthropic models reached through OpenRouter (the system
 * prompt is byte-stable within a session so providers can cache it; the original's
 * `apply_anthropic_cache_control`). OpenAI-style providers cache prefixes automatically; Anthropic
 * needs an explicit `cache_control: {type: "ephemeral"}` marker on the content part that ends the
 * stable prefix, which OpenRouter passes through when the content is an array of text parts.
 */
import type { ChatMessage } from './types.js';

type SystemMessage = Extract<ChatMessage, { role: 'system' }>;

/** True when `model` on `provider` takes Anthropic cache markers (`anthropic/*` on OpenRouter). */
export function wantsCacheBreakpoints(model: string, provider: string): boolean {
  return provider === 'openrouter' && model.trim().toLowerCase().startsWith('anthropic/');
}

/**
 * Marks the system prompt (the first system message, the stable prefix) with an ephemeral cache
 * breakpoint: its content becomes an array of text parts whose last part carries
 * `cache_control`. Only for `anthropic/*` models on `openrouter`; otherwise, or when there is no
 * system message, returns `messages` itself unchanged. Never mutates the input; idempotent.
 */
export function applyCacheBreakpoints(
  messages: ChatMessage[],
  model: string,
  provider: string,
): ChatMessage[] {
  if (!wantsCacheBreakpoints(model, provider)) return messages;
  const i = messages.findIndex((m) => m.role === 'system');
  if (i < 0) return messages;
  const sys = messages[i] as SystemMessage;
  const parts =
    typeof sys.content === 'string'
      ? [{ type: 'text' as const, text: sys.content }]
      : sys.content.map((p) => ({ ...p }));
  if (parts.length === 0) return messages;
  const last = parts[parts.length - 1]!;
  parts[parts.length - 1] = { ...last, cache_control: { type: 'ephemeral' } };
  const out = [...messages];
  out[i] = { role: 'system', content: parts };
  return out;
}

/**
 * Anthropic's limit of cache breakpoints in one request (`cache_control` markers: system prompt,
 * tools and messages together).
 */
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * The rule of breakpoints on a conversation (the original's "system_and_3"): one on the stable
 * system prompt, and one on each of the last `MAX_CACHE_BREAKPOINTS - 1` (3) messages after it,
 * so the next request reads the whole prefix up to the newest turn from the cache.
 * @param count number of non-system messages of the request.
 * @returns their indexes (0-based among the non-system messages) that get a breakpoint, ascending.
 */
export function lastTurnBreakpoints(count: number): number[] {
  const n = Math.min(count, MAX_CACHE_BREAKPOINTS - 1);
  return Array.from({ length: n }, (_, i) => count - n + i);
}
