/**
 * `hermes profile import FILE [--name NAME]`: the archive is streamed
 * from its file twice — first every member is checked against the safety rules and the size caps
 * (scanArchive), then it is extracted into a staging folder that is renamed into place. An unsafe
 * or oversized archive is refused before anything is written; any later failure (the caps are
 * counted again while extracting) removes the staging folder. What an archive could switch on
 * (cron jobs, loosened approvals, MCP commands, hooks) arrives switched off (import-quarantine.ts).
 */
import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UnpackSync } from 'tar';
import type { HermesHome } from '../home/home.js';
import { DEFAULT_PROFILE, normalizeProfileName, validateNewProfileName } from '../home/profile-name.js';
import {
  CapCounter,
  checkMember,
  DEFAULT_ARCHIVE_CAPS,
  feedFile,
  parserFailure,
  scanArchive,
  type ArchiveCaps,
} from './archive-safety.js';
import { ProfileError } from './errors.js';
import { quarantineImportedProfile } from './import-quarantine.js';
import { createStaging } from './staging.js';

/** What `importProfile` did. */
export interface ImportedProfile {
  name: string;
  home: HermesHome;
  /** Members extracted (files and folders). */
  members: number;
  /**
   * What was switched off because an archive is untrusted (paused cron jobs, reset approval
   * settings, disabled MCP servers, hooks set aside), one line each with how to turn it back on
   * (import-quarantine.ts).
   */
  disabled: string[];
}

/**
 * Imports a profile archive.
 * @param opts.name the new profile's name (default: the archive's top-level folder).
 * @param opts.caps size and member caps (default `DEFAULT_ARCHIVE_CAPS`).
 * @throws ProfileError `ENOENT` (no such file), `EUNSAFE` ("Unsafe archive member path: <name>";
 *   nothing written), `ETOOBIG` (a cap passed, named in the message), `EINVAL` (unreadable
 *   archive, bad name), `EDEFAULT` (the name is `default`), `EEXIST` (the profile exists).
 *   Nothing is left behind on any failure.
 */
export function importProfile(
  home: HermesHome,
  file: string,
  opts: { name?: string; caps?: ArchiveCaps } = {},
): ImportedProfile {
  const abs = resolve(file);
  const caps = opts.caps ?? DEFAULT_ARCHIVE_CAPS;
  const scan = scanArchive(abs, caps);
  const wanted = opts.name ?? scan.top;
  if (normalizeProfileName(wanted) === DEFAULT_PROFILE) {
    throw new ProfileError(
      'EDEFAULT',
      `cannot import over the default profile; choose a name: hermes profile import ${file} --name NAME`,
    );
  }
  let canon: string;
  try {
    canon = validateNewProfileName(wanted);
  } catch (err) {
    throw new ProfileError(
      'EINVAL',
      `${(err as Error).message}${opts.name ? '' : ' (from the archive; pass --name NAME)'}`,
    );
  }
  const target = home.forProfile(canon);
  if (existsSync(target.dir)) {
    throw new ProfileError('EEXIST', `profile "${canon}" already exists (${target.dir}); pass --name NAME`);
  }

  const staging = createStaging(target, 'importing');
  try {
    let problem: Error | undefined;
    const counter = new CapCounter(caps, abs);
    const unpack = new UnpackSync({
      cwd: staging.dir,
      strict: true,
      preserveOwner: false,
      filter: (path, entry) => {
        try {
          checkMember(path, (entry as { type: string }).type);
          counter.add(path, (entry as { size?: number }).size ?? 0);
          // never import keys or another machine's runtime state (export leaves them out too)
          const base = path.replace(/\/+$/, '').split('/').pop() ?? '';
          if (IMPORT_SKIPPED.test(base)) return false;
          return true;
        } catch (err) {
          problem ??= err as Error;
          return false;
        }
      },
    });
    unpack.on('error', (err: Error) => (problem ??= err));
    feedFile(abs, unpack, () => problem !== undefined);
    if (problem) throw parserFailure(problem, abs);
    const extracted = join(staging.dir, scan.top);
    if (!existsSync(extracted) || !lstatSync(extracted).isDirectory()) {
      throw new ProfileError('EINVAL', `${abs}: nothing was extracted`);
    }
    const env = join(extracted, relative(target.dir, target.envFile));
    if (existsSync(env) && lstatSync(env).isFile()) chmodSync(env, 0o600);
    stripUnsafeModes(extracted);
    // switched off before the rename: a daemon scanning profiles never sees it switched on
    const disabled = quarantineImportedProfile(extracted, canon);
    staging.commit(extracted);
    target.ensure();
    return { name: canon, home: target, members: scan.members, disabled };
  } catch (err) {
    staging.discard();
    throw err;
  }
}

/** Archive members never imported: keys, auth, databases, locks and discovery files. */
const IMPORT_SKIPPED =
  /^(?:\.env|auth\.json|state\.db(?:-wal|-shm|-journal)?|tui-gateway\.(?:json|lock)|.*\.lock|\.clean_shutdown)$/;

/** Removes setuid/setgid/sticky bits and group/other write from everything extracted. */
function stripUnsafeModes(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    const mode = lstatSync(p).mode & 0o7777;
    const safe = mode & 0o755;
    if (safe !== mode) chmodSync(p, safe);
    if (entry.isDirectory()) stripUnsafeModes(p);
  }
}
