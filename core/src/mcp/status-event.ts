/**
 * The payload of the `mcp.status` wire event (protocol/mcp.ts) for one server's status. Kept free
 * of the SDK and of zod, so the daemon can build it without loading the MCP client.
 */
import type { McpStatusPayload } from '../protocol/mcp.js';
import type { McpServerStatus } from './connection.js';

/** The payload of `mcp.status` for `status` of a server of `profile` (undefined for bad entries). */
export function mcpStatusPayload(profile: string, status: McpServerStatus): McpStatusPayload | undefined {
  if (status.kind === 'invalid') return undefined;
  return {
    profile,
    server: status.name,
    transport: status.kind,
    state: status.state,
    ...(status.attempt !== undefined ? { attempt: status.attempt } : {}),
    ...(status.retryAt !== undefined ? { retry_at: status.retryAt } : {}),
    ...(status.error !== undefined ? { error: status.error } : {}),
    ...(status.state === 'ready' ? { tools: status.tools } : {}),
  };
}
