/** What every command module receives: the resolved home of the selected profile. */
import type { HermesHome } from '@hermes/core/home';

/** Context built by `main` before yargs runs. */
export interface CliContext {
  /** The selected profile's home (flag → HERMES_HOME profile → sticky active_profile → default). */
  home: HermesHome;
  /** Version of the CLI package. */
  version: string;
  /**
   * Identifies this build for caches of derived data (config-cache.ts): set in the bundled build
   * (version and bundle time), absent in an unbundled one, which then caches nothing.
   */
  build?: string;
  /** The profile named by `-p/--profile` on this command line, if any (`hermes migrate` brings only it). */
  profileFlag?: string;
}

/** Thrown by a command to exit with a code and a one-line message on stderr. */
export class CliExit extends Error {
  constructor(
    readonly code: number,
    message = '',
  ) {
    super(message);
    this.name = 'CliExit';
  }
}
