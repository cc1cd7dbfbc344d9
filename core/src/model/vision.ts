/**
 * Which models accept images. `model.vision` of config.yaml decides when it is `true` or `false`;
 * with `auto` (the default) the model id is matched against the patterns below (after dropping a
 * vendor prefix and an Ollama tag, as for context windows). An unknown model is taken to have no
 * vision: a prompt with images is then refused with a message naming the model and the setting,
 * never sent with the images silently dropped.
 */
import type { HermesConfig } from '../config/schema.js';
import { normaliseModelId } from './context-windows.js';

/** Model ids (normalised) known to accept image input. */
export const VISION_MODEL_PATTERNS: readonly RegExp[] = [
  /^gpt-4o/,
  /^gpt-4\.1/,
  /^gpt-4\.5/,
  /^gpt-4-turbo/,
  /^gpt-5/,
  /^chatgpt-4o/,
  /^o1(?!-mini)(?:-|$)/,
  /^o[34](?:-|$)/,
  /^claude-3/,
  /^claude-(?:sonnet|opus|haiku)/,
  /^gemini/,
  /^gemma-?3/,
  /^(?:meta-)?llama-?4/,
  /^llava/,
  /^bakllava/,
  /^pixtral/,
  /^mistral-(?:small|medium)-3/,
  /^qwen[\d.]*-?vl/,
  /^qvq/,
  /^minicpm-v/,
  /^moondream/,
  /^grok-4/,
  // any id naming vision (gpt-4-vision, llama3.2-vision, grok-2-vision …)
  /vision/,
];

/** True when the model id matches a known vision model. */
export function knownVisionModel(model: string): boolean {
  const id = normaliseModelId(model);
  return VISION_MODEL_PATTERNS.some((p) => p.test(id));
}

/** Whether `model` accepts images under `config` (`model.vision`, then the known models). */
export function modelAcceptsImages(model: string, config?: Pick<HermesConfig, 'model'>): boolean {
  const setting = config?.model.vision ?? 'auto';
  if (setting !== 'auto') return setting;
  return knownVisionModel(model);
}

/**
 * The refusal of a prompt carrying `images` images for `model`, or undefined when the model
 * accepts them (or there are none). The text names the model and the setting that changes it.
 */
export function visionRefusal(
  model: string,
  images: number,
  config?: Pick<HermesConfig, 'model'>,
): string | undefined {
  if (images === 0 || modelAcceptsImages(model, config)) return undefined;
  const what = images === 1 ? 'an image' : `${images} images`;
  const name = model || '(no model set)';
  const why =
    config?.model.vision === false
      ? 'model.vision is false in config.yaml'
      : 'it is not known to accept images';
  return (
    `The prompt carries ${what}, but model ${name} cannot take images (${why}). ` +
    'Pick a model with vision (/model), or set model.vision: true in config.yaml if this one has it.'
  );
}
