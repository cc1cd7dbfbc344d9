/**
 * The model client: `createModelClient` plus its parts. Named entry point
 * `@hermes/core/model`; `openai` loads only with this module.
 */
export * from './types.js';
export * from './errors.js';
export * from './providers.js';
export * from './credential-pool.js';
export * from './context-windows.js';
export * from './vision.js';
export * from './content.js';
export * from './cache-control.js';
export * from './retry.js';
export { createModelClient, type HermesModelClient, type ModelClientOptions } from './client.js';
export * from './reasoning.js';
export * from './presets.js';
export * from './catalog.js';
export * from './pricing.js';
export { PRICE_TABLE, PRICE_TABLE_CHECKED, type PriceRow } from './pricing-table.js';
export {
  ENDPOINT_PRICED_PROVIDERS,
  EndpointPrices,
  endpointPricesAt,
  parseModelsPricing,
  type EndpointPricesOptions,
} from './endpoint-prices.js';
