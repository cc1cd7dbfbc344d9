/**
 * Checking a profile archive before anything is extracted (seed 001 §9.2, issue 5 "import"):
 * every member must be a regular file or a folder whose path is relative, has no drive letter
 * and no `..` part. Links (symbolic or hard), devices and FIFOs are refused. The whole archive is
 * scanned first; one bad member refuses the whole archive.
 */
import { Parser, type ReadEntry } from 'tar';
import { ProfileError } from './errors.js';

/** Member types an archive may hold. */
const SAFE_TYPES: ReadonlySet<string> = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);

/**
 * The safe path parts of a member name (`\` read as `/`; empty and `.` parts dropped).
 * @throws ProfileError `EUNSAFE` "Unsafe archive member path: <name>" for an empty name, an
 *   absolute path, a drive letter (`C:`), or a `..` part.
 */
export function safeMemberParts(name: string): string[] {
  const normalized = name.replace(/\\/g, '/');
  const unsafe = (): ProfileError => new ProfileError('EUNSAFE', `Unsafe archive member path: ${name}`);
  if (
    !normalized ||
    normalized.startsWith('/') ||
    /^[A-Za-z]:/.test(normalized) ||
    normalized.includes('\0')
  ) {
    throw unsafe();
  }
  const parts = normalized.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..')) throw unsafe();
  return parts;
}

/**
 * Checks one member: its path (see `safeMemberParts`) and its type.
 * @throws ProfileError `EUNSAFE` "Unsafe archive member path: <name> (<type>)" for links,
 *   devices, FIFOs and any other non-file, non-folder member.
 */
export function checkMember(name: string, type: string): string[] {
  const parts = safeMemberParts(name);
  if (!SAFE_TYPES.has(type)) {
    throw new ProfileError('EUNSAFE', `Unsafe archive member path: ${name} (${type})`);
  }
  return parts;
}

/** The result of a scan. */
export interface ArchiveScan {
  /** The archive's one top-level folder. */
  top: string;
  /** Number of members (files and folders). */
  members: number;
}

/**
 * Reads a whole `.tar.gz` (or `.tar`) from memory and checks every member.
 * @param label the archive's file name, for messages.
 * @throws ProfileError `EUNSAFE` for the first unsafe member; `EINVAL` naming `label` when the
 *   data is not a readable tar archive, is empty, or does not hold exactly one top-level folder.
 */
export function scanArchive(data: Buffer, label: string): ArchiveScan {
  const tops = new Set<string>();
  let members = 0;
  let failure: Error | undefined;
  let ended = false;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      entry.resume();
      if (failure) return;
      try {
        const parts = checkMember(entry.path, entry.type);
        if (parts.length === 1 && entry.type !== 'Directory') {
          throw new ProfileError(
            'EINVAL',
            `${label}: member "${entry.path}" is outside the profile's folder`,
          );
        }
        tops.add(parts[0]!);
        members++;
      } catch (err) {
        failure = err as Error;
      }
    },
  });
  parser.on('error', (err: Error) => (failure ??= err));
  parser.on('end', () => (ended = true));
  try {
    parser.end(data);
  } catch (err) {
    failure ??= err as Error;
  }
  if (failure instanceof ProfileError) throw failure;
  if (failure || !ended) {
    throw new ProfileError(
      'EINVAL',
      `${label} is not a readable .tar.gz archive${failure ? `: ${failure.message}` : ' (truncated)'}`,
    );
  }
  if (members === 0) throw new ProfileError('EINVAL', `${label} is an empty archive`);
  if (tops.size !== 1) {
    throw new ProfileError(
      'EINVAL',
      `${label} must hold one top-level folder (found: ${[...tops].sort().join(', ')})`,
    );
  }
  return { top: [...tops][0]!, members };
}
