/**
 * The agent loop: one session's turns (model calls, tool calls, compression, sub-agents) and the
 * runtime that opens a session for a frontend. Named entry point `@hermes/core/agent`: other
 * packages import this area only through it.
 */
export * from './agent.js';
export * from './compressor.js';
export * from './session-runtime.js';
export { CallCosts, MODEL_PRICES_FILE, storedSessionCost, warmEndpointPrices } from './call-costs.js';
export { SUMMARY_PREFIX } from './compression-plan.js';
export { GUIDANCE_PREFIX, guidanceForModel, historyFromRecords } from './history.js';
