/**
 * Scheduled agent runs: job store, schedules and time zones, due computation, the tick, running a
 * job and delivering its output. Named entry point `@hermes/core/cron`: other packages import this
 * area only through it.
 */
export * from './blocked.js';
export * from './delivery.js';
export * from './due.js';
export * from './jobs.js';
export * from './run.js';
export * from './schedule.js';
export * from './status.js';
export * from './store.js';
export * from './suggestions.js';
export * from './tick.js';
export * from './timezone.js';
export * from './trigger.js';
export * from './types.js';
