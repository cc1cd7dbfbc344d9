/**
 * File checkpoints: snapshots taken before the agent edits a folder, their listing, diff and
 * restore. Named entry point `@hermes/core/checkpoints`: other packages import this area only
 * through it.
 */
export * from './checkpoints.js';
export * from './rollback.js';
export * from './tracker.js';
