/**
 * Before any command touches the home: a root that is a home of the Python Hermes (both programs
 * default to `~/.hermes`) is refused with the way out (`hermes migrate`), so neither the daemon nor
 * a command opens its state.db, rewrites its config.yaml or runs its cron jobs (docs/migrate.md
 * "One folder, two programs"). Cheap on the usual path: no state.db, or one whose SQLite header
 * carries our `user_version`, or a running daemon of ours, settles it without loading SQLite.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CliExit } from './context.js';

/** Commands that work in a home of the Python Hermes: the migration itself and help. */
function exempt(argv: readonly string[]): boolean {
  return argv[0] === 'migrate' || argv[0] === 'help' || argv.some((a) => a === '--help' || a === '-h');
}

/**
 * Refuses the command when `root` is a home of the Python Hermes. A running daemon of ours for
 * this root settles it too (the daemon refuses such a home when it starts).
 * @throws CliExit(1) with the message naming `hermes migrate`.
 */
export async function guardPythonHome(root: string, argv: readonly string[]): Promise<void> {
  if (exempt(argv)) return;
  const file = join(root, 'state.db');
  if (!existsSync(file)) return;
  const { headerUserVersion } = await import('./lazy/migrate-offer.js');
  const version = headerUserVersion(file);
  if (version === undefined || version >= 1) return;
  const { daemonSeemsRunning } = await import('./commands/tui.js');
  if (daemonSeemsRunning(root)) return;
  const { assertNotPythonHome, PythonHomeError } = await import('./lazy/migrate.js');
  try {
    assertNotPythonHome(root);
  } catch (err) {
    if (err instanceof PythonHomeError) throw new CliExit(1, err.message);
    throw err;
  }
}
