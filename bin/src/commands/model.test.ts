// Shell completion of provider ids and models for `hermes model` and `hermes auth`.
import { describe, expect, it } from 'vitest';
import { completeProviderWords } from './model.js';

describe('completeProviderWords', () => {
  it('offers provider ids where a provider goes, models after PROVIDER/ or PROVIDER, nothing elsewhere', async () => {
    expect(await completeProviderWords(['model'], '')).toContain('deepseek');
    expect(await completeProviderWords(['model', 'set'], 'de')).toContain('deepseek');
    expect(await completeProviderWords(['model', 'list'], '')).toContain('ollama');
    expect(await completeProviderWords(['auth', 'add'], '')).toContain('openrouter');
    expect(await completeProviderWords(['auth', 'remove'], '')).not.toContain('bedrock');
    expect(await completeProviderWords(['model', 'set'], 'glm/')).toEqual([
      'glm/glm-4.6',
      'glm/glm-4.5',
      'glm/glm-4.5-air',
    ]);
    expect(await completeProviderWords(['model', 'deepseek'], '')).toEqual([
      'deepseek-chat',
      'deepseek-reasoner',
    ]);
    expect(await completeProviderWords(['config'], '')).toBeUndefined();
    expect(await completeProviderWords(['auth'], '')).toBeUndefined();
  });
});
