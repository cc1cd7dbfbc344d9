/** @hermes/platform-irc (placeholder until the adapter lands). */
export {};
