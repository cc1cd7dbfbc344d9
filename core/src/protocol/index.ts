/**
 * The wire protocol between the tui-gateway daemon and its clients: zod schemas and
 * TypeScript types. Imports zod only, so the TUI can depend on it without pulling in the engine.
 */
export * from './attachments.js';
export * from './cron.js';
export * from './processes.js';
export * from './status.js';
export * from './heartbeats.js';
export * from './events.js';
export * from './jsonrpc.js';
export * from './records.js';
export * from './attachments.js';
export * from './server-requests.js';
export * from './wire-events.js';
export * from './methods.js';
export * from './conversation.js';
export * from './limits.js';
export * from './approval-arming.js';
export * from './mcp.js';
export * from './event-check.js';
