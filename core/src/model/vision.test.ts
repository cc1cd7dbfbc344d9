import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { knownVisionModel, modelAcceptsImages, visionRefusal } from './vision.js';

const cfg = (vision?: unknown) => ConfigSchema.parse(vision === undefined ? {} : { model: { vision } });

describe('vision', () => {
  it('knows vision models by id, vendor prefix and Ollama tag dropped', () => {
    for (const m of [
      'gpt-4o',
      'openai/gpt-4o-mini',
      'gpt-4.1',
      'anthropic/claude-3.5-sonnet',
      'claude-sonnet-4',
      'google/gemini-2.0-flash',
      'llava:13b',
      'qwen2.5-vl:7b',
      'llama3.2-vision:11b',
      'gemma3:4b',
      'pixtral-12b',
    ])
      expect(knownVisionModel(m), m).toBe(true);
    for (const m of [
      'gpt-3.5-turbo',
      'llama3.1:8b',
      'deepseek-chat',
      'fake-model',
      'o1-mini',
      'qwen2.5-coder',
    ])
      expect(knownVisionModel(m), m).toBe(false);
  });

  it('model.vision overrides the table; auto is the default', () => {
    expect(cfg().model.vision).toBe('auto');
    expect(modelAcceptsImages('fake-model', cfg())).toBe(false);
    expect(modelAcceptsImages('fake-model', cfg(true))).toBe(true);
    expect(modelAcceptsImages('gpt-4o', cfg(false))).toBe(false);
  });

  it('refuses images for a model without vision, naming the model and the setting', () => {
    expect(visionRefusal('gpt-4o', 1, cfg())).toBeUndefined();
    expect(visionRefusal('fake-model', 0, cfg())).toBeUndefined();
    const msg = visionRefusal('llama3.1:8b', 2, cfg())!;
    expect(msg).toContain('2 images');
    expect(msg).toContain('llama3.1:8b');
    expect(msg).toContain('model.vision: true');
    expect(visionRefusal('gpt-4o', 1, cfg(false))).toContain('model.vision is false');
  });

  it('a bad model.vision value is an error naming the key', () => {
    const r = ConfigSchema.safeParse({ model: { vision: 'sometimes' } });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues[0]?.path)).toContain('vision');
  });
});
