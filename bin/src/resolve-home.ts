/** Picks the home for this run (issue 5 "Resolution"): flag, then HERMES_HOME, sticky, default. */
import { existsSync } from 'node:fs';
import { HermesHome, readActiveProfile, resolveRoot } from '@hermes/core/home/home';
import { DEFAULT_PROFILE } from '@hermes/core/home/profile-name';
import { CliExit } from './context.js';

/**
 * @param flagProfile profile from `-p/--profile`, already validated as an id.
 * @throws CliExit(1) when the selected named profile does not exist.
 */
export function resolveCliHome(flagProfile: string | undefined, env: NodeJS.ProcessEnv): HermesHome {
  const { root, envProfile } = resolveRoot(env);
  const name = flagProfile ?? envProfile ?? readActiveProfile(root) ?? DEFAULT_PROFILE;
  const home = new HermesHome(root, name);
  if (name !== DEFAULT_PROFILE && !existsSync(home.dir)) {
    throw new CliExit(1, `profile "${name}" does not exist; create it with: hermes profile create ${name}`);
  }
  return home;
}
