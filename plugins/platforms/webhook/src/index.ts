/** @hermes/platform-webhook (placeholder until the adapter lands). */
export {};
