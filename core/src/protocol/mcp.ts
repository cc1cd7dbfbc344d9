/**
 * MCP on the wire: the `mcp.status` event (session_id `*`), sent to every client each time one
 * of a profile's MCP servers changes state — starting, ready, backing off before a restart,
 * failed, stopped. Times are epoch ms.
 */
import { z } from 'zod';

/** Payload of `mcp.status`. */
export const McpStatusPayload = z.object({
  profile: z.string(),
  /** The server's name under `mcp_servers`. */
  server: z.string(),
  transport: z.enum(['stdio', 'http']),
  state: z.enum(['starting', 'ready', 'backoff', 'failed', 'disabled', 'stopped']),
  /** Restart attempt (1-based), while starting again or backing off. */
  attempt: z.number().int().positive().optional(),
  /** When the next restart attempt is due (backing off), epoch ms. */
  retry_at: z.number().optional(),
  /** Why it failed or went down (may hold the end of its stderr, several lines). */
  error: z.string().optional(),
  /** Its tools (`mcp_<server>_<tool>`), when ready. */
  tools: z.array(z.string()).optional(),
});
export type McpStatusPayload = z.infer<typeof McpStatusPayload>;
