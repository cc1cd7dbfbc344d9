/**
 * `hermes profile create NAME [--clone | --clone-all] [--from SRC] [--description TEXT]`:
 * a blank profile (the standard sub-folders), a light clone (config, keys, SOUL.md, memory files, skills) or a full clone without history and runtime
 * state. Built in a staging folder and renamed into place; the copied `.env` is always 0600.
 * A full clone's cron jobs arrive paused: one daemon serves every profile, so active copies would
 * fire twice (resume them in the clone to use them).
 */
import { chmodSync, existsSync, lstatSync } from 'node:fs';
import type { HermesHome } from '../home/home.js';
import { DEFAULT_PROFILE, validateNewProfileName } from '../home/profile-name.js';
import { copyTree } from './copy-tree.js';
import { ProfileError } from './errors.js';
import { pauseAllJobs } from './import-quarantine.js';
import { existingProfile } from './lookup.js';
import { writeProfileMeta } from './meta.js';
import {
  CLONE_ALL_HISTORY_EXCLUDE,
  CLONE_DIRS,
  CLONE_FILES,
  isRuntimeName,
  ROOT_INFRA_EXCLUDE,
} from './rules.js';
import { createStaging } from './staging.js';

/** How the new profile is filled. */
export type CreateMode = 'blank' | 'clone' | 'clone-all';

/** Options of `createProfile`. */
export interface CreateProfileOptions {
  /** Default `blank`. */
  mode?: CreateMode;
  /** Source profile of a clone (default `default`). */
  from?: string;
  /** Written to the new profile's `profile.yaml`. */
  description?: string;
  /**
   * Test seam: runs after the staging folder is filled, before it is renamed into place. A throw
   * here must leave nothing behind.
   */
  beforeCommit?: (stagingDir: string) => void;
}

/** What `createProfile` did. */
export interface CreatedProfile {
  /** The new profile's home. */
  home: HermesHome;
  mode: CreateMode;
  /** Source profile of a clone. */
  from?: string;
  /** Files and links copied from the source, relative to its home, sorted. */
  copied: string[];
}

/**
 * Creates a profile.
 * @param home any home under the root (the new profile is `<root>/profiles/<name>`).
 * @throws ProfileError `EINVAL` (bad, reserved or sub-command name — the message says why),
 *   `EEXIST` (the profile exists), `ENOENT` (no source profile); Error naming the path on a file
 *   system failure. Nothing is left behind on any failure.
 */
export function createProfile(
  home: HermesHome,
  name: string,
  opts: CreateProfileOptions = {},
): CreatedProfile {
  let canon: string;
  try {
    canon = validateNewProfileName(name);
  } catch (err) {
    throw new ProfileError('EINVAL', (err as Error).message);
  }
  const target = home.forProfile(canon);
  if (existsSync(target.dir)) {
    throw new ProfileError('EEXIST', `profile "${canon}" already exists (${target.dir})`);
  }
  const mode = opts.mode ?? 'blank';
  const source = mode === 'blank' ? undefined : existingProfile(home, opts.from ?? DEFAULT_PROFILE);

  const staging = createStaging(target);
  try {
    const copied: string[] = [];
    if (source && mode === 'clone') {
      for (const rel of [...CLONE_FILES, ...CLONE_DIRS]) {
        const src = source.path(rel);
        if (existsSync(src)) copied.push(...copyTree(src, staging.pathOf(target.path(rel)), rel));
      }
    } else if (source && mode === 'clone-all') {
      const fromRoot = source.profile === DEFAULT_PROFILE;
      copied.push(
        ...copyTree(source.dir, staging.dir, '', (rel, entry) => {
          if (isRuntimeName(entry)) return false;
          if (rel !== entry) return true;
          return !CLONE_ALL_HISTORY_EXCLUDE.has(entry) && !(fromRoot && ROOT_INFRA_EXCLUDE.has(entry));
        }),
      );
    }
    staging.ensureLayout();
    if (mode === 'clone-all') pauseAllJobs(staging.pathOf(target.cronJobsFile));
    const env = staging.pathOf(target.envFile);
    if (existsSync(env) && lstatSync(env).isFile()) chmodSync(env, 0o600);
    if (opts.description?.trim()) {
      writeProfileMeta(staging.pathOf(target.profileMetaFile), { description: opts.description });
    }
    opts.beforeCommit?.(staging.dir);
    staging.commit();
    return {
      home: target,
      mode,
      ...(source ? { from: source.profile } : {}),
      copied: copied.sort(),
    };
  } catch (err) {
    staging.discard();
    throw err;
  }
}
