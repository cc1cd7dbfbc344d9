/**
 * `hermes profile use NAME`: the sticky selection in `<root>/active_profile`,
 * read when no `-p` flag and no profile `HERMES_HOME` is given. `default` clears it.
 */
import { rmSync } from 'node:fs';
import { readActiveProfile, type HermesHome } from '../home/home.js';
import { DEFAULT_PROFILE } from '../home/profile-name.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { existingProfile } from './lookup.js';

/**
 * Makes `name` the sticky profile.
 * @returns the canonical name now selected.
 * @throws ProfileError `EINVAL` / `ENOENT` for a bad or missing profile.
 */
export function useProfile(home: HermesHome, name: string): string {
  const target = existingProfile(home, name);
  setStickyProfile(home, target.profile);
  return target.profile;
}

/**
 * Writes (or, for `default`, removes) `<root>/active_profile` without checking that the profile
 * exists (rename and delete use it to follow their change).
 */
export function setStickyProfile(home: HermesHome, name: string): void {
  if (name === DEFAULT_PROFILE) rmSync(home.activeProfileFile, { force: true });
  else writeFileAtomic(home.activeProfileFile, `${name}\n`);
}

/** The sticky profile (`default` when `<root>/active_profile` is absent or invalid). */
export function stickyProfile(home: HermesHome): string {
  return readActiveProfile(home.root) ?? DEFAULT_PROFILE;
}
