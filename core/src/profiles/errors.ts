/**
 * The one error type of profile management. Every message names the profile or the
 * file it is about, so the CLI prints it as is.
 */

/**
 * Why an operation was refused:
 * - `EINVAL` bad name or bad archive;
 * - `ENOENT` no such profile or file;
 * - `EEXIST` the target profile, alias or output file already exists;
 * - `EDEFAULT` the operation is not allowed on the `default` profile;
 * - `EBUSY` a process (the daemon, `hermes chat`) holds a session of the profile;
 * - `EUNSAFE` an archive member is an absolute path, a drive letter, `..`, a link or a device;
 * - `ECOLLIDE` an alias name collides with a reserved word, a sub-command or a program on PATH;
 * - `ENOTOURS` a file in the way was not written by hermes (never overwritten or removed);
 * - `ETOOBIG` an archive passes a cap (inflated size, member size, member count, ratio).
 */
export type ProfileErrorCode =
  'EINVAL' | 'ENOENT' | 'EEXIST' | 'EDEFAULT' | 'EBUSY' | 'EUNSAFE' | 'ECOLLIDE' | 'ENOTOURS' | 'ETOOBIG';

/** A refused or failed profile operation. */
export class ProfileError extends Error {
  constructor(
    readonly code: ProfileErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ProfileError';
  }
}
