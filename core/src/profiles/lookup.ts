/**
 * Finding profiles under a root. Every lookup starts from a `HermesHome` of any
 * profile and works at its root, so `hermes -p work profile list` sees every profile.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import type { HermesHome } from '../home/home.js';
import { DEFAULT_PROFILE, isValidProfileId, normalizeProfileName } from '../home/profile-name.js';
import { ProfileError } from './errors.js';

/**
 * Names of every profile under the root: `default` first, then every folder of
 * `<root>/profiles/` whose name is a valid id, sorted. A directory scan only.
 */
export function profileNames(home: HermesHome): string[] {
  const names = [DEFAULT_PROFILE];
  const dir = home.profilesDir;
  if (!existsSync(dir)) return names;
  const found = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== DEFAULT_PROFILE && isValidProfileId(e.name))
    .map((e) => e.name)
    .sort();
  return [...names, ...found];
}

/**
 * The home of an existing profile, by a user-typed name (trimmed, lower-cased).
 * @throws ProfileError `EINVAL` for a name that is not a profile id, `ENOENT` (with the create
 *   hint) when the profile's folder does not exist.
 */
export function existingProfile(home: HermesHome, name: string): HermesHome {
  const canon = normalizeProfileName(name);
  if (canon !== DEFAULT_PROFILE && !isValidProfileId(canon)) {
    throw new ProfileError('EINVAL', `"${name}" is not a valid profile name`);
  }
  const target = home.forProfile(canon);
  if (canon === DEFAULT_PROFILE) return target;
  let isDir: boolean;
  try {
    isDir = statSync(target.dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    throw new ProfileError(
      'ENOENT',
      `profile "${canon}" does not exist (${target.dir}); create it with: hermes profile create ${canon}`,
    );
  }
  return target;
}

/** @throws ProfileError `EDEFAULT` when `name` is the default profile (`what` names the operation). */
export function refuseDefault(name: string, what: string): void {
  if (normalizeProfileName(name) === DEFAULT_PROFILE) {
    throw new ProfileError('EDEFAULT', `the default profile cannot be ${what}`);
  }
}
