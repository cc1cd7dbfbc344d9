/**
 * Staging folders: a new profile is built in `<root>/profiles/.staging-<name>-XXXXXX` and renamed
 * into place in one step, so a failed create or import leaves nothing behind. The dot
 * keeps staging folders out of every profile listing (names must start with a letter or digit).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { HOME_SUBDIRS, type HermesHome } from '../home/home.js';
import { ProfileError } from './errors.js';

/** A staging folder for the profile `target`. */
export interface Staging {
  /** Absolute path of the staging folder. */
  dir: string;
  /** Where a path of `target` (e.g. `target.envFile`) lives inside the staging folder. */
  pathOf(targetPath: string): string;
  /** Creates the standard sub-folders (HOME_SUBDIRS) inside the staging folder. */
  ensureLayout(): void;
  /**
   * Renames `from` (default: the staging folder itself) to the target's folder and removes what
   * is left of the staging folder.
   * @throws ProfileError `EEXIST` when the target appeared meanwhile.
   */
  commit(from?: string): void;
  /** Removes the staging folder (idempotent). */
  discard(): void;
}

/** Creates a staging folder beside the target's folder (same file system, so rename is atomic). */
export function createStaging(target: HermesHome, purpose = 'staging'): Staging {
  mkdirSync(target.profilesDir, { recursive: true });
  const dir = mkdtempSync(join(target.profilesDir, `.${purpose}-${target.profile}-`));
  chmodSync(dir, 0o700);
  const pathOf = (p: string): string => join(dir, relative(target.dir, p));
  return {
    dir,
    pathOf,
    ensureLayout() {
      for (const sub of HOME_SUBDIRS) mkdirSync(pathOf(target.path(sub)), { recursive: true });
    },
    commit(from = dir) {
      if (existsSync(target.dir)) {
        throw new ProfileError('EEXIST', `profile "${target.profile}" already exists (${target.dir})`);
      }
      renameSync(from, target.dir);
      // a profile folder is private whatever the archive said about its top folder
      chmodSync(target.dir, 0o700);
      if (from !== dir) rmSync(dir, { recursive: true, force: true });
    },
    discard() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
