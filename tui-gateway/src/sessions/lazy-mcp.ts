/**
 * Loaded with `import()` when a profile's MCP servers are first needed (it brings the MCP SDK). A
 * dynamic import of `@hermes/core/mcp` itself would make that whole entry point a bundle entry and
 * load it with every static import of the area (the daemon's `mcp.status` events).
 */
export { McpManager, runMcpCommand } from '@hermes/core/mcp';
