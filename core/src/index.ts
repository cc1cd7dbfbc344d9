/** Public API of the agent engine. Heavy modules are also reachable by subpath (`@hermes/core/<dir>/<file>`). */
export * from './home/home.js';
export * from './home/profile-name.js';
export * from './config/schema.js';
export * from './config/errors.js';
export * from './config/config-file.js';
export * from './config/secrets.js';
export * from './protocol/index.js';
export * from './messaging/index.js';
export * from './util/listen.js';
