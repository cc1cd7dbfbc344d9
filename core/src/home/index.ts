/**
 * Where a profile lives: the Hermes root and a profile's home folders, profile names, and the
 * CLI's profile flags. Named entry point `@hermes/core/home`: other packages import this area only
 * through it.
 */
export * from './cli-value-flags.js';
export * from './home.js';
export * from './profile-name.js';
