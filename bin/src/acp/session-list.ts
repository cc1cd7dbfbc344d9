/**
 * `session/list`: the profile's interactive sessions (started in an editor, a TUI or `hermes
 * chat`) as ACP session infos, so an editor can load one, a terminal's session included.
 */
import { isAbsolute } from 'node:path';
import type { SessionInfo as AcpSessionInfo } from '@agentclientprotocol/sdk';
import type { SessionInfo } from '@hermes/core/protocol';

/** Sources whose sessions an editor may take over (not platforms, cron runs or sub-agents). */
export const LISTED_SOURCES: readonly string[] = ['acp', 'tui', 'cli'];

/**
 * The sessions to list, newest first: interactive ones with an absolute folder (ACP requires
 * one), in `cwd` only when given. The title is the session's, else its first prompt.
 */
export function listedSessions(sessions: readonly SessionInfo[], cwd?: string | null): AcpSessionInfo[] {
  return sessions.flatMap((s): AcpSessionInfo[] => {
    if (!LISTED_SOURCES.includes(s.source) || !s.cwd || !isAbsolute(s.cwd)) return [];
    if (cwd && s.cwd !== cwd) return [];
    const title = s.title ?? s.preview ?? null;
    return [
      {
        sessionId: s.id,
        cwd: s.cwd,
        ...(title ? { title: title.length > 120 ? `${title.slice(0, 119)}…` : title } : {}),
        updatedAt: new Date(s.started_at).toISOString(),
      },
    ];
  });
}
