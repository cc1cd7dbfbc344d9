/**
 * Commands a cron run was refused (user-trial finding 4): nobody can approve a flagged command in
 * an unattended run, so the approval guard denies it; the run is then `blocked`, not `ok`, and
 * this note says which commands and how to allow them. Pure; shared by run.ts and the CLI.
 */

/** A command a cron run was refused. */
export interface BlockedCommand {
  command: string;
  /** `approval`: it needed an approval nobody could give; `lifecycle`: it would stop the daemon. */
  why: 'approval' | 'lifecycle';
}

/**
 * The note on a run whose commands were blocked: which, and how to allow them. The allowlist
 * does not apply to cron runs (run.ts empties it), so the way is `approvals.cron_mode: allow`.
 */
export function blockedNote(blocked: readonly BlockedCommand[]): string {
  const shown = blocked
    .slice(0, 3)
    .map((b) => (b.command.length > 80 ? `${b.command.slice(0, 79)}…` : b.command));
  const more = blocked.length > 3 ? ` (and ${blocked.length - 3} more)` : '';
  const n = blocked.length;
  const parts = [`${n} command${n === 1 ? ' was' : 's were'} blocked: ${shown.join('; ')}${more}.`];
  if (blocked.some((b) => b.why === 'approval'))
    parts.push(
      'A cron job has nobody to approve flagged commands; to let cron jobs run them: hermes config set approvals.cron_mode allow',
    );
  if (blocked.some((b) => b.why === 'lifecycle'))
    parts.push('A cron job may never stop or restart the daemon.');
  return parts.join(' ');
}
