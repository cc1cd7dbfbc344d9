/**
 * Calls a cron run was refused (user-trial finding 4): nobody can approve a flagged command or an
 * `execute_code` script in an unattended run, so the approval guard denies it; the run is then
 * `blocked`, not `ok`, and this note says what was refused and how to allow it. Pure; shared by
 * run.ts and the CLI.
 */

/** A call a cron run was refused: a shell command, a script, or another tool's call. */
export interface BlockedCommand {
  /** The command; for a script `<language>: <first line>`; else `<tool>: <summary>`. */
  command: string;
  /**
   * `approval`: it needed an approval nobody could give; `lifecycle`: it would stop the daemon;
   * `floor`: a catastrophic command Hermes never runs, in any mode; `sandbox`: the sandbox stopped
   * it (a write outside the job's folder, a hidden path, the network) or could not run.
   */
  why: 'approval' | 'lifecycle' | 'floor' | 'sandbox';
  /** What was refused; a shell command when absent. */
  kind?: 'script' | 'call';
}

const NOUNS = {
  command: ['command', 'commands'],
  script: ['script', 'scripts'],
  call: ['tool call', 'tool calls'],
};

/**
 * The note on a run whose calls were blocked: which, and how to allow them. The allowlist
 * does not apply to cron runs (run.ts empties it), so the way is `approvals.cron_mode: allow`.
 */
export function blockedNote(blocked: readonly BlockedCommand[]): string {
  const shown = blocked
    .slice(0, 3)
    .map((b) => (b.command.length > 80 ? `${b.command.slice(0, 79)}…` : b.command));
  const more = blocked.length > 3 ? ` (and ${blocked.length - 3} more)` : '';
  const counts = (['command', 'script', 'call'] as const)
    .map((k) => [k, blocked.filter((b) => (b.kind ?? 'command') === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${NOUNS[k][n === 1 ? 0 : 1]}`);
  const verb = blocked.length === 1 ? 'was' : 'were';
  const parts = [`${counts.join(' and ')} ${verb} blocked: ${shown.join('; ')}${more}.`];
  const approval = blocked.filter((b) => b.why === 'approval');
  if (approval.length) {
    const scripts = approval.some((b) => b.kind === 'script');
    const others = approval.some((b) => b.kind !== 'script');
    const what = [others ? 'flagged commands' : '', scripts ? 'scripts (execute_code)' : '']
      .filter(Boolean)
      .join(' or ');
    parts.push(
      `A cron job has nobody to approve ${what}; to let cron jobs run them: hermes config set approvals.cron_mode allow`,
    );
  }
  if (blocked.some((b) => b.why === 'sandbox'))
    parts.push(
      'Cron jobs run in the sandbox (their folder writable, the rest read-only, credentials hidden; see docs/sandbox.md); to change that: hermes config set terminal.sandbox.cron off',
    );
  if (blocked.some((b) => b.why === 'lifecycle'))
    parts.push('A cron job may never stop or restart the daemon.');
  if (blocked.some((b) => b.why === 'floor'))
    parts.push(
      'Hermes never runs catastrophic commands (deleting / or the home folder, wiping a disk, shutting down …), in any approval mode.',
    );
  return parts.join(' ');
}
