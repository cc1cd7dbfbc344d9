/** Loaded by `hermes chat` only when the profile configures MCP servers (it brings the MCP SDK). */
export { createMcpManager } from '@hermes/core/mcp';
export { mcpServerSandbox } from '@hermes/core/tools';
