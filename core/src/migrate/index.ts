/**
 * `hermes migrate`: a home of the Python Hermes into this hermes's layout, and the recognition of
 * such a home where this hermes would otherwise open it (docs/migrate.md).
 */
export * from './errors.js';
export * from './migrate.js';
export * from './offer.js';
export * from './python-home.js';
export * from './report.js';
export * from './types.js';
