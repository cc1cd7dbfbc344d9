/**
 * The line printed after the TUI exits: the session stays in the daemon (a running turn keeps
 * running there) and how to come back to it, as other coding agents print a resume command.
 */

import { commandName } from '../command-name.js';

/** The session named in the exit hint. */
export interface ExitSession {
  id: string;
  title: string | null;
  profile: string;
  busy: boolean;
}

/**
 * One line naming the session and the commands that resume it. `bareProfile` is the profile a
 * plain `hermes tui` opens here: a session of another one is named with `-p`. `command` is how
 * the hermes command is spelled in this install (default: `commandName()`). Null when no session
 * was ever opened.
 */
export function exitHint(
  session: ExitSession | null,
  bareProfile: string | null,
  command: string = commandName(),
): string | null {
  if (!session) return null;
  const p = session.profile !== bareProfile ? ` -p ${session.profile}` : '';
  const title = session.title ? ` “${session.title.replace(/\s+/g, ' ').slice(0, 60)}”` : '';
  const state = session.busy ? 'keeps running in the daemon' : 'stays in the daemon';
  return (
    `Session${title} ${state} (in the background). ` +
    `Resume: ${command} tui${p} -s ${session.id} · the latest: ${command} tui${p} -c`
  );
}
