/**
 * `hermes profile export NAME [-o FILE]`: a `.tar.gz` holding one
 * top-level folder named after the profile, without secrets (`.env`, `auth.json`), databases,
 * history, caches or runtime files. Symbolic links are left out (an import would refuse them).
 */
import { existsSync, lstatSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { create } from 'tar';
import type { HermesHome } from '../home/home.js';
import { ProfileError } from './errors.js';
import { existingProfile } from './lookup.js';
import { EXPORT_EXCLUDE_ANYWHERE, EXPORT_EXCLUDE_TOP, isRuntimeName } from './rules.js';

/** What `exportProfile` wrote. */
export interface ExportedProfile {
  name: string;
  /** Absolute path of the archive. */
  file: string;
  /** Files in the archive, relative to the profile's folder, sorted. */
  files: string[];
  /** Symbolic links and special files left out, relative paths. */
  skipped: string[];
}

/** The paths (folders and files) an export of `home` holds, relative to its folder. */
export function exportEntries(
  home: HermesHome,
  exclude: ReadonlySet<string> = new Set(),
): {
  entries: string[];
  files: string[];
  skipped: string[];
} {
  const entries: string[] = [];
  const files: string[] = [];
  const skipped: string[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = join(dir, name);
      if (!rel && EXPORT_EXCLUDE_TOP.has(name)) continue;
      if (EXPORT_EXCLUDE_ANYWHERE.has(name) || isRuntimeName(name) || exclude.has(abs)) continue;
      const st = lstatSync(abs);
      if (st.isDirectory()) {
        entries.push(r);
        walk(abs, r);
      } else if (st.isFile()) {
        entries.push(r);
        files.push(r);
      } else {
        skipped.push(r);
      }
    }
  };
  walk(home.dir, '');
  return { entries, files, skipped };
}

/**
 * Writes the archive of a profile.
 * @param outFile default `./<name>.tar.gz` (relative paths resolve from the process's cwd).
 * @throws ProfileError `ENOENT` (no such profile), `EEXIST` (the output file exists); Error naming
 *   the output file when it cannot be written (nothing is left behind).
 */
export async function exportProfile(
  home: HermesHome,
  name: string,
  outFile?: string,
): Promise<ExportedProfile> {
  const source = existingProfile(home, name);
  const file = resolve(outFile ?? `${source.profile}.tar.gz`);
  if (existsSync(file)) throw new ProfileError('EEXIST', `${file} already exists; not overwriting it`);
  const tmp = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  const { entries, files, skipped } = exportEntries(source, new Set([file, tmp]));
  try {
    await create(
      { gzip: true, file: tmp, cwd: source.dir, prefix: source.profile, portable: true, noDirRecurse: true },
      ['.', ...entries],
    );
    if (existsSync(file)) throw new ProfileError('EEXIST', `${file} already exists; not overwriting it`);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    if (err instanceof ProfileError) throw err;
    throw new Error(`cannot write ${file}: ${(err as Error).message}`, { cause: err });
  }
  return { name: source.profile, file, files, skipped };
}
