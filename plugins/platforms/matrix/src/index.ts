/** `@hermes/platform-matrix`: Matrix adapter (matrix-js-sdk client-server API, threads, m.replace edit-streaming). Not yet enabled: the definition lands with its adapter. */
export {};
