import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_TOKENS, maxTokensFor, outputLimitFor } from './limits.js';

describe('anthropic max_tokens', () => {
  it('knows the output limit per family', () => {
    expect(outputLimitFor('claude-3-haiku-20240307')).toBe(4096);
    expect(outputLimitFor('claude-3-5-sonnet-latest')).toBe(8192);
    expect(outputLimitFor('claude-opus-4-1-20250805')).toBe(32000);
    expect(outputLimitFor('claude-opus-4-5')).toBe(64000);
    expect(outputLimitFor('claude-sonnet-4-5')).toBe(64000);
  });

  it('asks for the default, capped, and more than the thinking budget', () => {
    expect(maxTokensFor('claude-sonnet-4-5')).toBe(DEFAULT_MAX_TOKENS);
    expect(maxTokensFor('claude-3-5-haiku-latest')).toBe(8192);
    expect(maxTokensFor('claude-sonnet-4-5', 24576)).toBe(24576 + DEFAULT_MAX_TOKENS);
    expect(maxTokensFor('claude-opus-4-1', 24576)).toBe(32000);
    expect(maxTokensFor('claude-3-haiku', 8192)).toBe(8193);
  });
});
