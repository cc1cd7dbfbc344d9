/** Picks the home for this run: flag, then HERMES_HOME, sticky, default. */
import { existsSync } from 'node:fs';
import { HermesHome, readActiveProfile, resolveRoot, DEFAULT_PROFILE } from '@hermes/core/home';
import { CliExit } from './context.js';
import { hermesCommand } from './command-form.js';

/** Options of `resolveCliHome`. */
export interface ResolveHomeOptions {
  /**
   * When the sticky `<root>/active_profile` names a profile that no longer exists, use `default`
   * (with a warning) instead of failing — `hermes profile …` must still run so it can be fixed.
   */
  lenientSticky?: boolean;
  /** Where the warning goes (default stderr). */
  warn?: (line: string) => void;
}

/**
 * @param flagProfile profile from `-p/--profile`, already validated as an id.
 * @throws CliExit(1) when the selected named profile does not exist (the message says how to
 *   create it, or for a stale sticky selection how to go back to default).
 */
export function resolveCliHome(
  flagProfile: string | undefined,
  env: NodeJS.ProcessEnv,
  opts: ResolveHomeOptions = {},
): HermesHome {
  const { root, envProfile } = resolveRoot(env);
  const sticky = (flagProfile ?? envProfile) ? undefined : readActiveProfile(root);
  const name = flagProfile ?? envProfile ?? sticky ?? DEFAULT_PROFILE;
  const home = new HermesHome(root, name);
  if (name !== DEFAULT_PROFILE && !existsSync(home.dir)) {
    if (name === sticky) {
      const why = `the sticky profile "${name}" (${home.activeProfileFile}) does not exist`;
      if (opts.lenientSticky) {
        (opts.warn ?? ((l) => process.stderr.write(`${l}\n`)))(`hermes: ${why}; using default`);
        return new HermesHome(root);
      }
      throw new CliExit(
        1,
        `${why}; create it with: ${hermesCommand()} profile create ${name}, or go back to default: ${hermesCommand()} profile use default`,
      );
    }
    throw new CliExit(
      1,
      `profile "${name}" does not exist; create it with: ${hermesCommand()} profile create ${name}`,
    );
  }
  return home;
}
