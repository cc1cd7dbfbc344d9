import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import type { ModelClient } from '../model/types.js';
import type { AgentOptions } from './agent-types.js';
import type { CallCosts } from './call-costs.js';
import { compressorFor } from './settings-parts.js';

const model = {
  defaultModel: 'test-model',
  stream: () => Promise.reject(new Error('unused')),
} as ModelClient;
const costs = {} as CallCosts;

describe('compressorFor', () => {
  it('keeps the count of compressions and uses the given context window and threshold', () => {
    const opts = {
      config: ConfigSchema.parse({ compression: { threshold: 0.25 } }),
      model,
      contextWindow: 10_000,
    } as unknown as AgentOptions;
    const compressor = compressorFor(opts, costs, 3);
    expect(compressor.compressions).toBe(3);
    expect(compressor.thresholdTokens).toBe(2_500);
  });

  it('without a given window, takes the model context length from the config', () => {
    const opts = {
      config: ConfigSchema.parse({ model: { context_length: 40_000 } }),
      model,
    } as unknown as AgentOptions;
    expect(compressorFor(opts, costs, 0).thresholdTokens).toBe(20_000);
  });
});
