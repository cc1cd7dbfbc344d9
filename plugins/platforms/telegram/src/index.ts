/** @hermes/platform-telegram (placeholder until the adapter lands). */
export {};
