/**
 * The line printed after the TUI exits: the session stays in the daemon (a running turn keeps
 * running there) and how to come back to it, as other coding agents print a resume command.
 */

/** The session named in the exit hint. */
export interface ExitSession {
  id: string;
  title: string | null;
  profile: string;
  busy: boolean;
}

/**
 * One line naming the session and the commands that resume it. `startProfile` is the profile the
 * TUI started in: another one is named with `-p` (a plain `hermes tui` would open that one).
 * Null when no session was ever opened.
 */
export function exitHint(session: ExitSession | null, startProfile: string | null): string | null {
  if (!session) return null;
  const p = session.profile !== startProfile ? ` -p ${session.profile}` : '';
  const title = session.title ? ` “${session.title.replace(/\s+/g, ' ').slice(0, 60)}”` : '';
  const state = session.busy ? 'keeps running in the daemon' : 'stays in the daemon';
  return (
    `Session${title} ${state} (in the background). ` +
    `Resume: hermes tui${p} -s ${session.id} · the latest: hermes tui${p} -c`
  );
}
