/**
 * `hermes profile rename OLD NEW`: moves `<root>/profiles/OLD` to `<root>/profiles/NEW`
 * in one rename, then follows the change in `active_profile` and in the wrappers hermes wrote.
 */
import { existsSync, renameSync } from 'node:fs';
import type { HermesHome } from '../home/home.js';
import { validateNewProfileName } from '../home/profile-name.js';
import { retargetAliases } from './alias.js';
import { refuseBusy } from './busy.js';
import { ProfileError } from './errors.js';
import { existingProfile, refuseDefault } from './lookup.js';
import { setStickyProfile, stickyProfile } from './use.js';

/** What `renameProfile` did. */
export interface RenamedProfile {
  from: string;
  to: string;
  home: HermesHome;
  /** True when `active_profile` named the old profile and now names the new one. */
  stickyUpdated: boolean;
  /** Paths of the wrappers rewritten to run the new name. */
  aliasesUpdated: string[];
}

/**
 * Renames a profile.
 * @param opts.homeDir the user's home folder, whose `.local/bin` wrappers follow the rename;
 *   omitted: wrappers are left alone.
 * @throws ProfileError `EDEFAULT` (old or new is `default`), `ENOENT` (no such profile),
 *   `EINVAL` (bad new name), `EEXIST` (new name taken), `EBUSY` (a session of it is live).
 */
export function renameProfile(
  home: HermesHome,
  from: string,
  to: string,
  opts: { homeDir?: string } = {},
): RenamedProfile {
  refuseDefault(from, 'renamed');
  refuseDefault(to, 'replaced by a rename');
  const source = existingProfile(home, from);
  let canon: string;
  try {
    canon = validateNewProfileName(to);
  } catch (err) {
    throw new ProfileError('EINVAL', (err as Error).message);
  }
  const target = home.forProfile(canon);
  if (target.profile === source.profile) {
    throw new ProfileError('EEXIST', `profile "${source.profile}" already has that name`);
  }
  if (existsSync(target.dir)) {
    throw new ProfileError('EEXIST', `profile "${canon}" already exists (${target.dir})`);
  }
  refuseBusy(source, 'renamed');
  try {
    renameSync(source.dir, target.dir);
  } catch (err) {
    throw new Error(`cannot rename ${source.dir} to ${target.dir}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const stickyUpdated = stickyProfile(home) === source.profile;
  if (stickyUpdated) setStickyProfile(home, target.profile);
  const aliasesUpdated = opts.homeDir ? retargetAliases(opts.homeDir, source.profile, target.profile) : [];
  return { from: source.profile, to: target.profile, home: target, stickyUpdated, aliasesUpdated };
}
