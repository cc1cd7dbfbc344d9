/** What the tools of `hermes mcp serve` share: the daemon link, the profile, and how failures read. */
import type { DaemonLink } from './daemon-link.js';
import { errorResult, type ToolResultText } from './session-data.js';

/** What every tool gets. */
export interface ToolDeps {
  /** The connection to the daemon, in `profile`. */
  link: DaemonLink;
  /** The selected profile (every request stays in it). */
  profile: string;
  /** The profile's state.db (read-only searches and last-activity times). */
  stateDbFile: string;
  /** Working folder of sessions `session_send` creates without a `cwd` (absolute). */
  defaultCwd: string;
}

/**
 * The MCP error result for a failed call: the daemon's message (it names the field or the
 * session), or why the daemon could not be reached.
 */
export function failure(err: unknown): ToolResultText {
  const e = err as { name?: string; message?: string; reason?: string };
  const message = e?.message ?? String(err);
  if (e?.name === 'DaemonConnectError')
    return errorResult(`could not reach the Hermes daemon (${e.reason ?? 'error'}): ${message}`);
  return errorResult(message);
}
