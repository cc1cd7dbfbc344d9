/**
 * Test helpers of the engine (fakes, fixtures); for tests only, never for production code.
 */
export * from './agent/testing.js';
export * from './cron/testing.js';
export * from './images/testing.js';
export * from './messaging/plugin-testing.js';
export * from './messaging/testing.js';
export * from './migrate/testing.js';
export * from './state/testing.js';
export * from './tools/sandbox/testing.js';
