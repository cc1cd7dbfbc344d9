/**
 * A profile's config.yaml and .env: schema, loading (cached, with warnings), editing, secrets and
 * what counts as loosening the approval settings. Named entry point `@hermes/core/config`: other
 * packages import this area only through it.
 */
export * from './approval-changes.js';
export * from './config-cache.js';
export * from './config-file.js';
export * from './config-show.js';
export * from './env-file.js';
export * from './errors.js';
export * from './schema.js';
export * from './secret-names.js';
export * from './secrets.js';
