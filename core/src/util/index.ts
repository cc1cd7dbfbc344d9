/**
 * Small shared helpers: atomic writes, file stamps, listening sockets. Named entry point
 * `@hermes/core/util`: other packages import this area only through it.
 */
export * from './atomic-write.js';
export * from './file-stamp.js';
export * from './listen.js';
export * from './well-formed.js';
