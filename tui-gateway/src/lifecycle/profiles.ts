/**
 * Default profile lookups for `initialize` when the daemon is started without a `profiles` /
 * `activeProfile` hook (DESIGN §4: profile `default` is the root, named ones live in
 * `<root>/profiles/<name>/`; the sticky selection is `<root>/active_profile`).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readActiveProfile } from '@hermes/core/home/home';
import { DEFAULT_PROFILE, isValidProfileId } from '@hermes/core/home/profile-name';

/** `default` plus every folder of `<root>/profiles/` whose name is a valid profile id, sorted. */
export function listProfileNames(root: string): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(root, 'profiles'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && isValidProfileId(d.name) && d.name !== DEFAULT_PROFILE)
      .map((d) => d.name)
      .sort();
  } catch {
    /* no profiles folder */
  }
  return [DEFAULT_PROFILE, ...names];
}

/** The sticky profile (`<root>/active_profile`) or `default`. */
export function activeProfileName(root: string): string {
  return readActiveProfile(root) ?? DEFAULT_PROFILE;
}
