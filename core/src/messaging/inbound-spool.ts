/**
 * The attachments of accepted chat messages, kept as bytes until the message's turn has them.
 *
 * A message is recorded in the delivery ledger before its attachments are downloaded; the ledger
 * row keeps only text (JSON). The bytes live in the spool: once downloaded, each image and file is
 * written to `<spool>/<message id>/` (0600, in a 0700 folder; one spool per platform) and the row's `inbound` JSON names
 * them (`spool`). So a daemon killed between the download and the end of the message's turn — in
 * the chat's lane, while the prompt waits in the session's queue, or mid-turn — admits the message
 * again with the same images and files after the restart, and a turn run again gets its images
 * back (`prompt_images` names which of the message's images the turn was given). Only what was
 * downloaded can be kept: a download the kill cut is named as lost, as is a spooled file removed
 * by hand. A message's spool is removed when its outcome is decided; a start removes the spools
 * of messages no longer open.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImageAttachmentInput } from '../protocol/attachments.js';
import type { InboundFile } from './adapter.js';
import type { AttachmentNote } from './inbound-files.js';

/** One spooled image or file as the ledger row names it (`file`: its name in the message's folder). */
export interface SpooledItem {
  file: string;
  name: string;
  mime?: string;
  kind?: InboundFile['kind'];
  /** Size, bytes. */
  bytes: number;
}

/** What the spool holds of one message (the `spool` field of the row's inbound JSON). */
export interface SpoolManifest {
  images: SpooledItem[];
  files: SpooledItem[];
}

/** What `load` gives back: the attachments found, and notes of those that were not. */
export interface LoadedAttachments {
  images: ImageAttachmentInput[];
  files: InboundFile[];
  lost: AttachmentNote[];
}

/** A message id is a plain name (`in-…`); anything else is never used as a path. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The spool of one platform of a profile (`<home>/media/inbound/<platform>`). */
export class InboundSpool {
  /** @param dir the spool folder; created (0700) on the first save. */
  constructor(readonly dir: string) {}

  private folder(id: string): string {
    if (!SAFE_ID.test(id)) throw new Error(`invalid inbound message id "${id}"`);
    return join(this.dir, id);
  }

  /**
   * Writes the message's images (base64 `data`; an image given by path is not spooled) and files.
   * @returns the manifest to record in the ledger row, undefined when there was nothing to keep.
   * @throws the file system's error (disk full, permissions); nothing is left half-written.
   */
  save(
    id: string,
    att: { images?: readonly ImageAttachmentInput[]; files?: readonly InboundFile[] },
  ): SpoolManifest | undefined {
    const images = (att.images ?? []).filter((i) => i.data !== undefined);
    const files = att.files ?? [];
    if (!images.length && !files.length) return undefined;
    const dir = this.folder(id);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const manifest: SpoolManifest = { images: [], files: [] };
      for (const [i, img] of images.entries()) {
        const data = Buffer.from(img.data!, 'base64');
        writeFileSync(join(dir, `image-${i}`), data, { mode: 0o600 });
        manifest.images.push({
          file: `image-${i}`,
          name: img.name ?? `image-${i + 1}`,
          ...(img.mime ? { mime: img.mime } : {}),
          kind: 'image',
          bytes: data.length,
        });
      }
      for (const [i, f] of files.entries()) {
        writeFileSync(join(dir, `file-${i}`), f.data, { mode: 0o600 });
        manifest.files.push({
          file: `file-${i}`,
          name: f.name,
          ...(f.mime ? { mime: f.mime } : {}),
          ...(f.kind ? { kind: f.kind } : {}),
          bytes: f.data.length,
        });
      }
      return manifest;
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /**
   * Reads a message's spooled attachments back. One that is missing or unreadable (removed by
   * hand, a damaged disk) is named in `lost`; `pick` limits the images to those indices.
   */
  load(id: string, manifest: SpoolManifest, pick?: readonly number[]): LoadedAttachments {
    const out: LoadedAttachments = { images: [], files: [], lost: [] };
    let dir: string;
    try {
      dir = this.folder(id);
    } catch {
      for (const it of [...manifest.images, ...manifest.files]) out.lost.push(noteOf(it));
      return out;
    }
    const read = (it: SpooledItem): Buffer | undefined => {
      try {
        return readFileSync(join(dir, it.file));
      } catch {
        out.lost.push(noteOf(it));
        return undefined;
      }
    };
    for (const [i, it] of manifest.images.entries()) {
      if (pick && !pick.includes(i)) continue;
      const data = read(it);
      if (data)
        out.images.push({
          kind: 'image',
          data: data.toString('base64'),
          name: it.name,
          ...(it.mime ? { mime: it.mime } : {}),
        });
    }
    if (pick) return out;
    for (const it of manifest.files) {
      const data = read(it);
      if (data)
        out.files.push({
          name: it.name,
          data,
          ...(it.mime ? { mime: it.mime } : {}),
          ...(it.kind ? { kind: it.kind } : {}),
        });
    }
    return out;
  }

  /** Whether the spool holds anything of message `id`. */
  has(id: string): boolean {
    if (!SAFE_ID.test(id)) return false;
    try {
      return readdirSync(join(this.dir, id)).length > 0;
    } catch {
      return false;
    }
  }

  /** Removes a message's spool (nothing when it has none). */
  drop(id: string): void {
    if (!SAFE_ID.test(id)) return;
    rmSync(join(this.dir, id), { recursive: true, force: true });
  }

  /** Removes the spools of messages not in `open`. @returns how many were removed. */
  sweep(open: ReadonlySet<string>): number {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (open.has(name)) continue;
      rmSync(join(this.dir, name), { recursive: true, force: true });
      removed++;
    }
    return removed;
  }
}

function noteOf(it: SpooledItem): AttachmentNote {
  return { name: it.name, bytes: it.bytes, ...(it.kind ? { kind: it.kind } : {}) };
}

/**
 * The spool manifest recorded in a row's inbound JSON, or undefined when it has none or it is not
 * a well-formed one (a damaged row: its attachments are then named as lost by their notes).
 */
export function manifestFromJson(v: unknown): SpoolManifest | undefined {
  const o = v as { images?: unknown; files?: unknown } | null | undefined;
  if (!o || !Array.isArray(o.images) || !Array.isArray(o.files)) return undefined;
  const items = (a: unknown[]): SpooledItem[] | undefined => {
    const out: SpooledItem[] = [];
    for (const x of a) {
      const it = x as Partial<SpooledItem> | null;
      if (!it || typeof it.file !== 'string' || !/^(image|file)-\d+$/.test(it.file)) return undefined;
      if (typeof it.name !== 'string' || typeof it.bytes !== 'number') return undefined;
      out.push({
        file: it.file,
        name: it.name,
        bytes: it.bytes,
        ...(typeof it.mime === 'string' ? { mime: it.mime } : {}),
        ...(typeof it.kind === 'string' ? { kind: it.kind } : {}),
      });
    }
    return out;
  };
  const images = items(o.images);
  const files = items(o.files);
  return images && files ? { images, files } : undefined;
}
