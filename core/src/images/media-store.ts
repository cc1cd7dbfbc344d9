/**
 * The profile's image store: `<home>/media/<sha256>.<ext>`, one file per content (the same image
 * attached twice is stored once). Files are written 0600 through a temporary name and a rename,
 * so a reader never sees half an image.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { IMAGE_EXTENSIONS, type ImageMime } from './sniff.js';

/**
 * An image attachment as stored with its message (the JSON of `messages.attachments`): what a
 * chip shows (`name`, `mime`, `bytes`) and where the bytes are (`sha256` in the media store).
 */
export interface StoredImage {
  kind: 'image';
  /** Display name (the file's name, or `clipboard.png` …). */
  name: string;
  mime: ImageMime;
  /** Size of the image, bytes. */
  bytes: number;
  /** Hex SHA-256 of the bytes: the file `<sha256>.<ext>` of the media store. */
  sha256: string;
}

/** Reads and writes images of one home's media folder. */
export class MediaStore {
  /** @param dir the home's `mediaDir`. */
  constructor(readonly dir: string) {}

  /** Path of the stored file of `sha256` with type `mime`. */
  pathOf(sha256: string, mime: ImageMime): string {
    return join(this.dir, `${sha256}.${IMAGE_EXTENSIONS[mime]}`);
  }

  /**
   * Stores `data` (when not stored already) and returns its record.
   * @throws the file system's error (disk full, permissions).
   */
  put(data: Uint8Array, mime: ImageMime, name: string): StoredImage {
    const sha256 = createHash('sha256').update(data).digest('hex');
    const file = this.pathOf(sha256, mime);
    let present: boolean;
    try {
      present = statSync(file).size === data.length;
    } catch {
      present = false;
    }
    if (!present) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileAtomic(file, data, 0o600);
    }
    return { kind: 'image', name, mime, bytes: data.length, sha256 };
  }

  /**
   * The bytes of a stored image.
   * @throws Error naming the image when its file is missing (deleted by hand) or unreadable.
   */
  read(img: Pick<StoredImage, 'sha256' | 'mime' | 'name'>): Buffer {
    try {
      return readFileSync(this.pathOf(img.sha256, img.mime));
    } catch (err) {
      throw new Error(
        `image "${img.name}" is no longer in ${this.dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
        { cause: err },
      );
    }
  }

  /** The `data:` URL of a stored image (what a Chat Completions `image_url` part carries). */
  dataUrl(img: Pick<StoredImage, 'sha256' | 'mime' | 'name'>): string {
    return `data:${img.mime};base64,${this.read(img).toString('base64')}`;
  }
}
