/**
 * `profilesToServe`: the single source of which profiles the daemon serves. A
 * directory scan only: no per-profile config is read, nothing is probed.
 */
import { HermesHome, readActiveProfile } from '../home/home.js';
import { DEFAULT_PROFILE } from '../home/profile-name.js';
import { profileNames } from './lookup.js';

/** A served profile: its name and home folder. */
export interface ServedProfile {
  name: string;
  /** Absolute folder of the profile's home (the root for `default`). */
  dir: string;
}

/**
 * The profiles one daemon serves under `root`.
 * @param opts.multiplex true (the default: one daemon per root serves every
 *   profile): `default` plus every valid `<root>/profiles/<name>`, sorted. False: only the
 *   sticky active profile (`<root>/active_profile`, else `default`).
 */
export function profilesToServe(root: string, opts: { multiplex?: boolean } = {}): ServedProfile[] {
  const home = new HermesHome(root);
  if (opts.multiplex === false) {
    const active = home.forProfile(readActiveProfile(root) ?? DEFAULT_PROFILE);
    return [{ name: active.profile, dir: active.dir }];
  }
  return profileNames(home).map((name) => ({ name, dir: home.forProfile(name).dir }));
}
