/**
 * Background processes (`terminal` with `background: true`, the `process` tool, `hermes ps`):
 * the daemon's manager, the record under `<root>/run/`, the bounded logs, and their text.
 * Named entry point `@hermes/core/processes`.
 */
export * from './log-file.js';
export * from './manager.js';
export * from './notice.js';
export * from './record.js';
export * from './scope.js';
