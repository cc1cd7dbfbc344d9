/** @hermes/platform-api_server (placeholder until the adapter lands). */
export {};
