import { describe, expect, it } from 'vitest';
import {
  anthropicThinkingBudget,
  isReasoningEffort,
  openaiReasoningParams,
  reasoningSupported,
} from './reasoning.js';

const openai = { provider: 'openai', wire: 'openai-chat' as const };
const openrouter = { provider: 'openrouter', wire: 'openai-chat' as const };
const anthropic = { provider: 'anthropic', wire: 'anthropic-messages' as const };
const custom = { provider: 'custom', wire: 'openai-chat' as const };

describe('reasoning effort', () => {
  it('knows its levels', () => {
    expect(isReasoningEffort('medium')).toBe(true);
    expect(isReasoningEffort('max')).toBe(false);
  });

  it('decides support from the preset flag first, else the wire and provider', () => {
    expect(reasoningSupported(anthropic, 'claude-sonnet-4-5')).toBe(true);
    expect(reasoningSupported(anthropic, 'claude-3-5-haiku-latest')).toBe(false);
    expect(reasoningSupported(openrouter, 'meta/llama')).toBe(true);
    expect(reasoningSupported(openai, 'o3-mini')).toBe(true);
    expect(reasoningSupported(openai, 'gpt-5')).toBe(true);
    expect(reasoningSupported(openai, 'gpt-4o')).toBe(false);
    expect(reasoningSupported(custom, 'qwen3')).toBe(false);
    expect(reasoningSupported({ ...custom, supports: { reasoning: true } }, 'qwen3')).toBe(true);
    expect(reasoningSupported({ ...anthropic, supports: { reasoning: false } }, 'claude-sonnet-4-5')).toBe(
      false,
    );
  });

  it('maps to OpenAI reasoning_effort and OpenRouter reasoning', () => {
    expect(openaiReasoningParams(undefined, openai, 'o3')).toEqual({ params: {} });
    expect(openaiReasoningParams('high', openai, 'o3')).toEqual({ params: { reasoning_effort: 'high' } });
    expect(openaiReasoningParams('none', openai, 'gpt-5-mini')).toEqual({
      params: { reasoning_effort: 'minimal' },
    });
    const o3none = openaiReasoningParams('none', openai, 'o3');
    expect(o3none.params).toEqual({});
    expect(o3none.notice).toMatch(/cannot turn reasoning off/);
    expect(openaiReasoningParams('low', openrouter, 'x/y')).toEqual({
      params: { reasoning: { effort: 'low' } },
    });
    expect(openaiReasoningParams('none', openrouter, 'x/y')).toEqual({
      params: { reasoning: { enabled: false } },
    });
    const unsupported = openaiReasoningParams('medium', custom, 'llama3');
    expect(unsupported.params).toEqual({});
    expect(unsupported.notice).toMatch(/not supported by custom \(model llama3\)/);
  });

  it('maps to Anthropic thinking budgets', () => {
    expect(anthropicThinkingBudget(undefined, anthropic, 'claude-sonnet-4-5')).toEqual({});
    expect(anthropicThinkingBudget('none', anthropic, 'claude-sonnet-4-5')).toEqual({});
    expect(anthropicThinkingBudget('low', anthropic, 'claude-sonnet-4-5')).toEqual({ budget: 2048 });
    expect(anthropicThinkingBudget('high', anthropic, 'claude-sonnet-4-5')).toEqual({ budget: 24576 });
    expect(anthropicThinkingBudget('high', anthropic, 'claude-3-5-sonnet').notice).toMatch(/not supported/);
  });
});
