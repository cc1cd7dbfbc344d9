/**
 * MCP servers: their connections (stdio and HTTP), restarts with backoff, status events and the
 * tools they add. Named entry point `@hermes/core/mcp`: other packages import this area only
 * through it.
 */
export * from './manager.js';
export * from './status-event.js';
