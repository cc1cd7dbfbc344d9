/**
 * Turning what a client attached (`ImageAttachmentInput` of the protocol: a path or base64 bytes)
 * into a stored image: the path must name a readable regular file, the size must be within the
 * cap, the bytes must be a PNG, JPEG, GIF or WebP by their magic numbers (a client's `mime` is
 * never trusted). Every refusal names the attachment.
 */
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { basename } from 'node:path';
import type { HermesHome } from '../home/home.js';
import type { ImageAttachmentInput } from '../protocol/attachments.js';
import { protectedReadReason, resolveToolPath } from '../tools/paths.js';
import type { MediaStore, StoredImage } from './media-store.js';
import { IMAGE_EXTENSIONS, sniffImageMime } from './sniff.js';

/** A refused attachment; the message names it and says why. */
export class ImageAttachmentError extends Error {
  override name = 'ImageAttachmentError';
}

/** What `resolveImage` needs. */
export interface ResolveImageOptions {
  store: MediaStore;
  /** Folder a relative `path` is taken from (the session's working folder). */
  cwd: string;
  /** Largest image accepted, bytes (`images.max_bytes`). */
  maxBytes: number;
  /**
   * The profile's home: a `path` is then refused where `read_file` would refuse it (secrets of
   * the home, another profile's data).
   */
  home?: HermesHome;
}

const mib = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MiB`;

/** The bytes of a file, refusing a non-file or one over `max` bytes. */
function readCapped(file: string, label: string, max: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(code);
    throw new ImageAttachmentError(`${label}: cannot read ${file} (${why})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new ImageAttachmentError(`${label}: ${file} is not a regular file`);
    if (st.size > max)
      throw new ImageAttachmentError(
        `${label}: ${mib(st.size)} is over the ${mib(max)} limit (images.max_bytes)`,
      );
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    return buf.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}

/** The label of attachment `index` (0-based) in messages: `image 1 "shot.png"`. */
export function imageLabel(a: ImageAttachmentInput, index: number): string {
  const name = a.name ?? (a.path ? basename(a.path) : undefined);
  return `image ${index + 1}${name ? ` "${name}"` : ''}`;
}

/**
 * Reads, checks and stores one image attachment.
 * @param index its position among the prompt's attachments (named in errors).
 * @throws ImageAttachmentError naming it: unreadable path, not a file, over the cap, bad base64,
 *   not a png/jpeg/gif/webp.
 */
export function resolveImage(a: ImageAttachmentInput, index: number, opts: ResolveImageOptions): StoredImage {
  const label = imageLabel(a, index);
  let data: Buffer;
  if (a.path !== undefined) {
    const file = resolveToolPath(opts.cwd, a.path);
    const refused = opts.home ? protectedReadReason({ home: opts.home }, file) : undefined;
    if (refused) throw new ImageAttachmentError(`${label}: ${refused}`);
    data = readCapped(file, label, opts.maxBytes);
  } else {
    const b64 = (a.data ?? '').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64) || b64.length === 0)
      throw new ImageAttachmentError(`${label}: data is not base64`);
    if (Math.floor((b64.length * 3) / 4) > opts.maxBytes + 3)
      throw new ImageAttachmentError(
        `${label}: ${mib((b64.length * 3) / 4)} is over the ${mib(opts.maxBytes)} limit (images.max_bytes)`,
      );
    data = Buffer.from(b64, 'base64');
    if (data.length > opts.maxBytes)
      throw new ImageAttachmentError(
        `${label}: ${mib(data.length)} is over the ${mib(opts.maxBytes)} limit (images.max_bytes)`,
      );
  }
  if (data.length === 0) throw new ImageAttachmentError(`${label}: the image is empty`);
  const mime = sniffImageMime(data);
  if (!mime) throw new ImageAttachmentError(`${label}: not a PNG, JPEG, GIF or WebP image`);
  const name = a.name ?? (a.path ? basename(a.path) : `clipboard.${IMAGE_EXTENSIONS[mime]}`);
  return opts.store.put(data, mime, name);
}

/**
 * Resolves every image attachment of a prompt (other kinds are skipped: their owners resolve them).
 * @throws ImageAttachmentError for the first refused one.
 */
export function resolveImages(
  attachments: ReadonlyArray<{ kind: string }> | undefined,
  opts: ResolveImageOptions,
): StoredImage[] {
  const out: StoredImage[] = [];
  (attachments ?? []).forEach((a, i) => {
    if (a.kind === 'image') out.push(resolveImage(a as ImageAttachmentInput, i, opts));
  });
  return out;
}
