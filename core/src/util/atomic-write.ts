/** Crash-safe file replacement: write a temp file beside the target, fsync, rename. */
import {
  closeSync,
  copyFileSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Atomically replaces `file` with `data`: temp file in the same folder, fsync, rename, then fsync
 * of the folder. A crash leaves either the old or the new content, never a mix.
 * @param mode permission bits of the new file (e.g. 0o600 for secrets); default 0o644.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o644): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(tmp, 'w', mode);
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  try {
    const dfd = openSync(dir, 'r');
    fsyncSync(dfd);
    closeSync(dfd);
  } catch {
    /* some file systems refuse fsync on folders */
  }
}

/**
 * Copies a damaged file aside as `<file>.damaged-<ms>` before it is replaced, so nothing in it is
 * lost (the copy keeps the file's permission bits).
 * @returns the copy's path, or undefined when it could not be made (e.g. the file is gone).
 */
export function keepDamagedCopy(file: string): string | undefined {
  const copy = `${file}.damaged-${Date.now()}`;
  try {
    copyFileSync(file, copy);
    return copy;
  } catch {
    return undefined;
  }
}
