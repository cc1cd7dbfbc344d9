/**
 * Servers on this machine (data only; the shape and the rules are in presets.ts): keyless unless
 * `model.api_key_env` (or the preset's optional key variable) names a key, at their usual local
 * base URLs, which `model.base_url` (or the base-URL variable) moves.
 */
import type { ProviderPreset } from './presets.js';

/** A local OpenAI-compatible server; its `/models` lists what it serves. */
function local(
  p: Pick<ProviderPreset, 'id' | 'label' | 'baseURL'> & Partial<ProviderPreset>,
): ProviderPreset {
  return {
    aliases: [],
    keyVars: [],
    keyRequired: false,
    wire: 'openai-chat',
    modelsEndpoint: true,
    defaultModels: [],
    supports: { tools: true, images: false, reasoning: false },
    local: true,
    ...p,
  };
}

/** The local presets, in the order `hermes model` lists them. */
export const LOCAL_PRESETS: readonly ProviderPreset[] = [
  local({ id: 'ollama', label: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', aliases: ['ollama-local'] }),
  local({
    id: 'lmstudio',
    label: 'LM Studio',
    aliases: ['lm-studio', 'lm_studio'],
    baseURL: 'http://127.0.0.1:1234/v1',
    baseUrlVar: 'LM_BASE_URL',
    keyVars: ['LM_API_KEY'],
  }),
  local({ id: 'vllm', label: 'vLLM', baseURL: 'http://127.0.0.1:8000/v1', keyVars: ['VLLM_API_KEY'] }),
  local({
    id: 'llamacpp',
    label: 'llama.cpp server',
    aliases: ['llama.cpp', 'llama-cpp', 'llama-server'],
    baseURL: 'http://127.0.0.1:8080/v1',
  }),
];
