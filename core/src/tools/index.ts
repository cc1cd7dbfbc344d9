/**
 * The built-in tools the agent calls, their registry, and the processes they start. Named entry
 * point `@hermes/core/tools`: other packages import this area only through it.
 */
export * from './process-registry.js';
export * from './registry.js';
export * from './types.js';
export * from './sandbox/index.js';
