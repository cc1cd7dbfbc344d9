/**
 * The session store (SQLite state.db): sessions, messages, search, locks, damage handling and
 * write retries. Named entry point `@hermes/core/state`: other packages import this area only
 * through it.
 */
export * from './errors.js';
export * from './platform-tables.js';
export * from './api-responses.js';
export * from './model-calls.js';
export * from './usage-report.js';
export * from './session-db.js';
export * from './session-lock.js';
export * from './session-picks.js';
export * from './transcript-edits.js';
export * from './types.js';
export * from './write-retry.js';
