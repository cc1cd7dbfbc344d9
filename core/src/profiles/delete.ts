/**
 * `hermes profile delete NAME [--yes]`. The folder is first renamed out of the listing
 * (`<root>/profiles/.deleting-NAME-XXXXXX`) and then removed, so an interrupted delete never
 * leaves a half profile behind. Asking for confirmation is the caller's job.
 */
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { HermesHome } from '../home/home.js';
import { removeAliasesOf } from './alias.js';
import { refuseBusy } from './busy.js';
import { existingProfile, refuseDefault } from './lookup.js';
import { setStickyProfile, stickyProfile } from './use.js';

/** What `deleteProfile` did. */
export interface DeletedProfile {
  name: string;
  /** The folder that was removed. */
  path: string;
  /** True when `active_profile` named it (it is now cleared: `default`). */
  stickyCleared: boolean;
  /** Wrappers hermes wrote for it that were removed. */
  aliasesRemoved: string[];
}

/**
 * Deletes a profile and everything in its home.
 * @param opts.homeDir the user's home folder; hermes-written wrappers running the profile are
 *   removed from its `.local/bin`. Omitted: wrappers are left alone.
 * @throws ProfileError `EDEFAULT`, `EINVAL`, `ENOENT`, `EBUSY` (a session of it is live);
 *   Error naming the folder when it cannot be moved.
 */
export function deleteProfile(
  home: HermesHome,
  name: string,
  opts: { homeDir?: string } = {},
): DeletedProfile {
  refuseDefault(name, 'deleted');
  const target = existingProfile(home, name);
  refuseBusy(target, 'deleted');
  const holder = mkdtempSync(join(home.profilesDir, `.deleting-${target.profile}-`));
  const trash = join(holder, target.profile);
  try {
    renameSync(target.dir, trash);
  } catch (err) {
    rmSync(holder, { recursive: true, force: true });
    throw new Error(`cannot delete ${target.dir}: ${(err as Error).message}`, { cause: err });
  }
  rmSync(holder, { recursive: true, force: true });
  const stickyCleared = stickyProfile(home) === target.profile;
  if (stickyCleared) setStickyProfile(home, 'default');
  const aliasesRemoved = opts.homeDir ? removeAliasesOf(opts.homeDir, target.profile) : [];
  return { name: target.profile, path: target.dir, stickyCleared, aliasesRemoved };
}
