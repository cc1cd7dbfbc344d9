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
