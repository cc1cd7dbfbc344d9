/**
 * `max_tokens` of Anthropic requests (the API requires it). Per model family, the largest output
 * the model allows (tokens):
 *
 * | model                              | output limit |
 * |------------------------------------|--------------|
 * | claude-3-haiku, claude-3-opus, 2.x | 4,096        |
 * | claude-3-5-*                       | 8,192        |
 * | claude-opus-4, claude-opus-4-1     | 32,000       |
 * | every other (Sonnet 4+, Haiku 4.5+, Opus 4.5+ …) | 64,000 |
 *
 * Without thinking a request asks for `DEFAULT_MAX_TOKENS` (16,384) capped at that limit; with a
 * thinking budget, the budget plus `DEFAULT_MAX_TOKENS` for the answer, capped at the limit — always
 * more than the budget, as the API requires.
 */

/** Answer tokens asked for by default. */
export const DEFAULT_MAX_TOKENS = 16_384;

/** The largest output of `model`, tokens (the table in this file's header). */
export function outputLimitFor(model: string): number {
  const m = model.toLowerCase();
  if (/claude-(3-haiku|3-opus|2|instant)/.test(m)) return 4_096;
  if (/claude-3-5/.test(m)) return 8_192;
  if (/claude-opus-4(-1)?(-\d{8})?$/.test(m)) return 32_000;
  return 64_000;
}

/**
 * `max_tokens` for a request to `model`, tokens.
 * @param thinkingBudget the thinking budget when thinking is on.
 */
export function maxTokensFor(model: string, thinkingBudget?: number): number {
  const limit = outputLimitFor(model);
  if (thinkingBudget === undefined) return Math.min(limit, DEFAULT_MAX_TOKENS);
  return Math.max(thinkingBudget + 1, Math.min(limit, thinkingBudget + DEFAULT_MAX_TOKENS));
}
