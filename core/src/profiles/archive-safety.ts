/**
 * Checking a profile archive before anything is extracted:
 * every member must be a regular file or a folder whose path is relative, has no drive letter
 * and no `..` part. Links (symbolic or hard), devices and FIFOs are refused. The whole archive is
 * scanned first; one bad member refuses the whole archive.
 *
 * The archive is read from its file in small chunks and inflated as it is parsed (the `tar`
 * package's streaming parser), never whole in memory, and it must stay within `ArchiveCaps`:
 * members, the size of one member and the inflated total (sizes from the member headers, which
 * the parser holds each member to), and tar's own inflate ratio guard (1000×). Passing a cap
 * refuses the archive with `ETOOBIG`, naming the cap and the archive, as soon as it is seen.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { Parser, type ReadEntry } from 'tar';
import { ProfileError } from './errors.js';

/** Limits an imported archive must stay within. */
export interface ArchiveCaps {
  /** Members (files and folders). */
  maxMembers: number;
  /** Size of one member, bytes. */
  maxMemberBytes: number;
  /** All members together, inflated (data plus 512-byte headers), bytes. */
  maxTotalBytes: number;
}

/** The default caps: 100,000 members, 512 MiB a member, 1 GiB in all. */
export const DEFAULT_ARCHIVE_CAPS: ArchiveCaps = {
  maxMembers: 100_000,
  maxMemberBytes: 512 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
};

/** Compressed bytes read from the archive file per parser write. */
const READ_CHUNK_BYTES = 16 * 1024;

const MIB = 1024 * 1024;
const fmt = (n: number): string => (n >= MIB ? `${(n / MIB).toFixed(0)} MiB` : `${n} bytes`);

/** Counts members against the caps; `add` throws ETOOBIG for the first one past a cap. */
export class CapCounter {
  members = 0;
  total = 0;

  constructor(
    private readonly caps: ArchiveCaps,
    private readonly label: string,
  ) {}

  add(path: string, size: number): void {
    this.members++;
    this.total += 512 + size;
    const { maxMembers, maxMemberBytes, maxTotalBytes } = this.caps;
    if (this.members > maxMembers)
      throw new ProfileError('ETOOBIG', `${this.label}: more than ${maxMembers} members (member count cap)`);
    if (size > maxMemberBytes)
      throw new ProfileError(
        'ETOOBIG',
        `${this.label}: member "${path}" is ${fmt(size)}, over the member size cap of ${fmt(maxMemberBytes)}`,
      );
    if (this.total > maxTotalBytes)
      throw new ProfileError(
        'ETOOBIG',
        `${this.label}: inflates to more than ${fmt(maxTotalBytes)} (total inflated size cap)`,
      );
  }
}

/** The parser's own failure as a ProfileError: its inflate ratio guard is a cap too. */
export function parserFailure(err: Error, label: string): ProfileError {
  if (err instanceof ProfileError) return err;
  if (/decompression ratio/i.test(err.message))
    return new ProfileError('ETOOBIG', `${label}: inflates more than 1000× its size (inflate ratio cap)`);
  return new ProfileError('EINVAL', `${label} is not a readable .tar.gz archive: ${err.message}`);
}

/**
 * Writes the file to `parser` in small chunks, then ends it; stops early (without ending) once
 * `failed()` is true. @returns false when it stopped early.
 * @throws ProfileError `ENOENT` when the file cannot be read.
 */
export function feedFile(file: string, parser: Parser, failed: () => boolean): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw new ProfileError('ENOENT', `cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    const buf = Buffer.alloc(READ_CHUNK_BYTES);
    for (;;) {
      if (failed()) return false;
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      parser.write(Buffer.from(buf.subarray(0, n)));
    }
    if (failed()) return false;
    parser.end();
    return true;
  } finally {
    closeSync(fd);
  }
}

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
 * Reads a `.tar.gz` (or `.tar`) file, streaming, and checks every member.
 * @param file the archive's path (also its name in messages).
 * @throws ProfileError `EUNSAFE` for the first unsafe member; `ETOOBIG` for the first cap passed;
 *   `EINVAL` naming the file when it is not a readable tar archive, is empty, or does not hold
 *   exactly one top-level folder; `ENOENT` when it cannot be read.
 */
export function scanArchive(file: string, caps: ArchiveCaps = DEFAULT_ARCHIVE_CAPS): ArchiveScan {
  const label = file;
  const tops = new Set<string>();
  const counter = new CapCounter(caps, label);
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
        counter.add(entry.path, entry.size ?? 0);
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
    feedFile(file, parser, () => failure !== undefined);
  } catch (err) {
    if (err instanceof ProfileError && err.code === 'ENOENT') throw err;
    failure ??= err as Error;
  }
  if (failure) throw parserFailure(failure, label);
  if (!ended) throw new ProfileError('EINVAL', `${label} is not a readable .tar.gz archive (truncated)`);
  if (members === 0) throw new ProfileError('EINVAL', `${label} is an empty archive`);
  if (tops.size !== 1) {
    throw new ProfileError(
      'EINVAL',
      `${label} must hold one top-level folder (found: ${[...tops].sort().join(', ')})`,
    );
  }
  return { top: [...tops][0]!, members };
}
