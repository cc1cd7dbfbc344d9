/**
 * A user message with images as the model sees it (Chat Completions content parts), and the
 * attachments JSON stored with a message (`messages.attachments`) read back.
 */
import { createHash } from 'node:crypto';
import type { UserContentPart } from '../model/types.js';
import type { AttachmentInfo } from '../protocol/attachments.js';
import type { MediaStore, StoredImage } from './media-store.js';
import { IMAGE_EXTENSIONS, IMAGE_MIMES, type ImageMime } from './sniff.js';

/**
 * The content of a user message: the text alone when there are no images, else a text part
 * followed by one `image_url` part (a `data:` URL) per image.
 * @throws Error naming an image whose stored file is gone (see `MediaStore.read`).
 */
export function userContent(
  text: string,
  images: readonly StoredImage[],
  store: MediaStore,
): string | UserContentPart[] {
  if (images.length === 0) return text;
  return [
    { type: 'text', text },
    ...images.map((img): UserContentPart => ({ type: 'image_url', image_url: { url: store.dataUrl(img) } })),
  ];
}

/**
 * A user message's content as stored: the text of its text parts, and a record of each image part
 * (a `data:` URL of an image type) pointing at the media store by the content hash — the file
 * `userContent` read it from, so copying a message (into the child session of a compression)
 * keeps its images. Images are named `image-N.<ext>` (the original names are not in the parts).
 */
export function storedFromContent(content: string | UserContentPart[]): {
  text: string;
  images: StoredImage[];
} {
  if (typeof content === 'string') return { text: content, images: [] };
  const images: StoredImage[] = [];
  let text = '';
  for (const p of content) {
    if (p.type === 'text') {
      text += p.text;
      continue;
    }
    const m = /^data:(image\/[a-z]+);base64,(.*)$/s.exec(p.image_url.url);
    const mime = m?.[1] as ImageMime | undefined;
    if (!m || !mime || !(IMAGE_MIMES as readonly string[]).includes(mime)) continue;
    const bytes = Buffer.from(m[2]!, 'base64');
    images.push({
      kind: 'image',
      name: `image-${images.length + 1}.${IMAGE_EXTENSIONS[mime]}`,
      mime,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  }
  return { text, images };
}

/**
 * The attachments stored with a message (JSON text of `messages.attachments`), tolerant of damage:
 * anything that is not an array of objects with a `kind` and a `name` reads as no attachments.
 */
export function parseAttachments(
  json: string | null | undefined,
): Array<AttachmentInfo & Record<string, unknown>> {
  if (!json) return [];
  try {
    const v: unknown = JSON.parse(json);
    if (!Array.isArray(v)) return [];
    return v.filter(
      (a): a is AttachmentInfo & Record<string, unknown> =>
        !!a &&
        typeof a === 'object' &&
        typeof (a as AttachmentInfo).kind === 'string' &&
        typeof (a as AttachmentInfo).name === 'string',
    );
  } catch {
    return [];
  }
}

/** The stored images among a message's attachments (records with a usable hash and type). */
export function storedImages(json: string | null | undefined): StoredImage[] {
  return parseAttachments(json).filter(
    (a): a is StoredImage & Record<string, unknown> =>
      a.kind === 'image' &&
      typeof a.sha256 === 'string' &&
      /^[0-9a-f]{64}$/.test(a.sha256) &&
      (IMAGE_MIMES as readonly string[]).includes(String(a.mime)),
  );
}

/** The chip of each attachment (kind, name, mime, bytes), as clients get it. */
export function attachmentInfos(json: string | null | undefined): AttachmentInfo[] {
  return parseAttachments(json).map((a) => ({
    kind: a.kind,
    name: a.name,
    ...(typeof a.mime === 'string' ? { mime: a.mime } : {}),
    ...(typeof a.bytes === 'number' ? { bytes: a.bytes } : {}),
  }));
}
