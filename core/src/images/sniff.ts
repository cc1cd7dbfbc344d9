/**
 * The type of an image from its first bytes (magic numbers), never from a file name or a
 * client's word: PNG, JPEG, GIF and WebP — the formats the OpenAI-compatible APIs take.
 */

/** Image types accepted as attachments. */
export const IMAGE_MIMES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMime = (typeof IMAGE_MIMES)[number];

/** File extension used when storing an image of each type. */
export const IMAGE_EXTENSIONS: Readonly<Record<ImageMime, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const startsWith = (buf: Uint8Array, bytes: readonly number[], at = 0): boolean =>
  buf.length >= at + bytes.length && bytes.every((b, i) => buf[at + i] === b);

/** The image type of `buf` by its magic bytes, or undefined when it is none of `IMAGE_MIMES`. */
export function sniffImageMime(buf: Uint8Array): ImageMime | undefined {
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(buf, [0x47, 0x49, 0x46, 0x38]) && (buf[4] === 0x37 || buf[4] === 0x39) && buf[5] === 0x61)
    return 'image/gif';
  if (startsWith(buf, [0x52, 0x49, 0x46, 0x46]) && startsWith(buf, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  return undefined;
}
