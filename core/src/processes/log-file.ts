/**
 * The bounded output log of one background process (`<home>/processes/<id>.log`, 0600).
 *
 * - The process writes its stdout and stderr straight into the file (opened `O_APPEND`), not
 *   through the daemon: its output keeps landing there while no daemon runs (after a crash, or
 *   after `hermes gateway stop` with `terminal.background.keep_on_stop`).
 * - Bounding is copy-truncate, as logrotate does it: once the file is larger than the cap, its
 *   last `keep` bytes (from a line start when one is near) are read, the file is truncated to
 *   zero and those bytes are written back. Output written during the trim itself (well under a
 *   millisecond) may be lost. The daemon checks every running process's log every 50 ms, so a
 *   file exceeds the cap by at most what its process writes in that time.
 * - Offsets are logical: byte positions in everything the process ever wrote. `dropped` counts
 *   the bytes trimmed from the front, so a byte at file position `p` has offset `dropped + p`,
 *   and an offset taken before a trim still means the same byte.
 * - A log is a regular file: a symbolic link put in its place (the process may write into its
 *   folder) is never followed — it reads as empty and is never trimmed.
 */
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readSync,
  writeSync,
} from 'node:fs';

/** Default cap of a background process's log file, bytes (5 MiB). */
export const LOG_MAX_BYTES = 5 * 1024 * 1024;
/** Bytes of a process's log kept by a trim: the newest half of the cap. */
export const LOG_KEEP_BYTES = LOG_MAX_BYTES / 2;
/** Most bytes one read of a log returns. */
export const LOG_READ_MAX_BYTES = 64 * 1024;

/** Size of `file` in bytes, 0 when it is missing or not a regular file (a symbolic link). */
export function logSize(file: string): number {
  try {
    const st = lstatSync(file);
    return st.isFile() ? st.size : 0;
  } catch {
    return 0;
  }
}

/**
 * Trims `file` to its last `keep` bytes when it is larger than `cap` (see the file comment).
 * @returns the bytes removed from the front (0 when nothing was trimmed or the file is missing).
 */
export function trimLog(file: string, cap = LOG_MAX_BYTES, keep = LOG_KEEP_BYTES): number {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDWR | constants.O_NOFOLLOW);
  } catch {
    return 0;
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= cap) return 0;
    const want = Math.min(keep, size);
    const buf = Buffer.alloc(want);
    const got = readSync(fd, buf, 0, want, size - want);
    let tail = buf.subarray(0, got);
    // start at a line when one begins in the first eighth of the kept part
    const nl = tail.indexOf(0x0a);
    if (nl >= 0 && nl < want / 8) tail = tail.subarray(nl + 1);
    ftruncateSync(fd, 0);
    writeSync(fd, tail, 0, tail.length, 0);
    return size - tail.length;
  } finally {
    closeSync(fd);
  }
}

/** What `readLog` returns. */
export interface LogChunk {
  /** The text read (UTF-8; a character cut at the end of the read is completed by the next read). */
  text: string;
  /** Logical offset to pass next time (see the file comment). */
  next_offset: number;
  /** Bytes between the asked offset and the oldest byte still kept (trimmed away), else 0. */
  skipped: number;
  /** Logical size of everything written so far. */
  total: number;
}

/**
 * Reads the log from logical `offset` (see the file comment); a negative offset reads the last
 * `-offset` bytes.
 * @param dropped bytes trimmed from the front so far.
 * @param maxBytes most bytes returned (default `LOG_READ_MAX_BYTES`); at least 4 keeps characters whole.
 */
export function readLog(
  file: string,
  dropped: number,
  offset: number,
  maxBytes = LOG_READ_MAX_BYTES,
): LogChunk {
  const size = logSize(file);
  const total = dropped + size;
  let from = offset < 0 ? Math.max(dropped, total + offset) : offset;
  let skipped = 0;
  if (from < dropped) {
    skipped = dropped - from;
    from = dropped;
  }
  // an offset past the end names no byte yet: continue from the end
  if (from >= total) return { text: '', next_offset: total, skipped, total };
  const want = Math.min(maxBytes, total - from);
  const buf = Buffer.alloc(want);
  let got: number;
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      got = readSync(fd, buf, 0, want, from - dropped);
    } finally {
      closeSync(fd);
    }
  } catch {
    return { text: '', next_offset: from, skipped, total };
  }
  let end = got;
  // do not cut a UTF-8 character: stop before an incomplete trailing sequence
  if (from + got < total) end = completeUtf8(buf.subarray(0, got)) || got;
  return { text: buf.subarray(0, end).toString('utf8'), next_offset: from + end, skipped, total };
}

/** Length of the longest prefix of `b` that does not end inside a multi-byte UTF-8 character. */
function completeUtf8(b: Buffer): number {
  for (let i = b.length - 1, n = 0; i >= 0 && n < 4; i--, n++) {
    const c = b[i]!;
    if ((c & 0xc0) === 0x80) continue; // continuation byte
    const len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return i + len <= b.length ? b.length : i;
  }
  return b.length;
}
