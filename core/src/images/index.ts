/**
 * Images attached to prompts: type detection by magic bytes, the profile's media store, resolving
 * and checking what a client attached, and the content parts the model gets. Named entry point
 * `@hermes/core/images`.
 */
export * from './sniff.js';
export * from './media-store.js';
export * from './resolve.js';
export * from './parts.js';
