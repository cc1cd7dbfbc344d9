/**
 * The one-line summary of the daemon's live sessions shown in tmux's status bar (zod-free, shared
 * by `hermes status --tmux` and the daemon's status-line file).
 */

/** The name of the file under the root where a running daemon keeps its status line. */
export const STATUS_LINE_FILE = 'tui-gateway.status-line';

/**
 * The status line of these feed rows: `⚙N` sessions working, `⚠N` waiting for the user (approval
 * or clarify), `✗N` whose last turn failed, separated by spaces; '' when none of them.
 */
export function statusLine(rows: readonly { state: string }[]): string {
  const n = (states: string[]): number => rows.filter((r) => states.includes(r.state)).length;
  const parts: string[] = [];
  const working = n(['working']);
  const waiting = n(['approval', 'clarify']);
  const failed = n(['failed']);
  if (working) parts.push(`⚙${working}`);
  if (waiting) parts.push(`⚠${waiting}`);
  if (failed) parts.push(`✗${failed}`);
  return parts.join(' ');
}
