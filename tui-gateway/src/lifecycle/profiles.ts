/**
 * Profile lookups for `initialize` and the session layer: profile
 * `default` is the root, named ones live in `<root>/profiles/<name>/`; the sticky selection is
 * `<root>/active_profile`. One scan for the whole daemon: core's `profilesToServe`.
 */
import { readActiveProfile, DEFAULT_PROFILE } from '@hermes/core/home';
import { profilesToServe } from '@hermes/core/profiles';

/** `default` plus every folder of `<root>/profiles/` whose name is a valid profile id, sorted. */
export function listProfileNames(root: string): string[] {
  return profilesToServe(root).map((p) => p.name);
}

/** The sticky profile (`<root>/active_profile`) or `default`. */
export function activeProfileName(root: string): string {
  return readActiveProfile(root) ?? DEFAULT_PROFILE;
}
