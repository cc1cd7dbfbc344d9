/**
 * The parts of the Anthropic path that load `@anthropic-ai/sdk`, gathered so client.ts can import
 * them on first use (`import('./anthropic/wire.js')`): a setup without an Anthropic target never
 * loads the SDK (~0.25 s of start-up here).
 */
export { anthropicRoot, createAnthropicSdk, runAnthropicAttempt } from './attempt.js';
export { classifyAnthropicError } from './errors.js';
