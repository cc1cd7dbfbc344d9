/**
 * Media of an inbound Telegram message, downloaded through the Bot API (`getFile`, then
 * `/file/bot<token>/<file_path>`): a photo (the largest size within the image cap) and an image
 * document become `images` (the pipeline saves them as files instead when the model has no
 * vision); other documents, voice notes, audio and video become `files`. A file over the cap is
 * not downloaded: the message's text gets a line saying so, naming the config key. Names are the
 * sender's and stay untrusted (quoted here; the pipeline never uses them as paths).
 */
import { z } from 'zod';
import { formatUntrustedValue, type InboundFile } from '@hermes/core';
import type { ImageAttachmentInput } from '@hermes/core/protocol';
import type { BotApi, TgFileRef, TgMessage, TgPhotoSize } from './bot-api.js';

/** Image types the model takes (by the sender's MIME type; the daemon checks the bytes again). */
const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Limits of `collectMedia`. */
export interface MediaLimits {
  /** Largest file downloaded, bytes (`platforms.telegram.max_file_bytes`). */
  maxFileBytes: number;
  /** Largest image given to the model, bytes (`images.max_bytes`). */
  maxImageBytes: number;
}

/** What a message carries besides its text. */
export interface CollectedMedia {
  images: ImageAttachmentInput[];
  files: InboundFile[];
  /** Lines for the message's text about media that were not downloaded. */
  notes: string[];
}

/** The largest photo size within `max` bytes (sizes without a known size count as fitting). */
export function pickPhotoSize(sizes: readonly TgPhotoSize[], max: number): TgPhotoSize | undefined {
  const fitting = sizes.filter((s) => (s.file_size ?? 0) <= max);
  return fitting.sort((a, b) => b.width * b.height - a.width * a.height)[0];
}

const mib = (n: number): string =>
  n < 1024 ? `${n} bytes` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`;

/** True when a message carries media this module handles. */
export function hasMedia(msg: TgMessage): boolean {
  return !!(msg.photo?.length || msg.document || msg.voice || msg.audio || msg.video || msg.video_note);
}

/**
 * Downloads the message's media. Never throws: a file that cannot be fetched becomes a note.
 * @param log operational log (no tokens: BotApi errors never carry the URL).
 */
export async function collectMedia(
  api: BotApi,
  msg: TgMessage,
  limits: MediaLimits,
  log: (line: string) => void,
): Promise<CollectedMedia> {
  const out: CollectedMedia = { images: [], files: [], notes: [] };
  const fetchFile = async (
    fileId: string,
    label: string,
    max: number,
    key: string,
  ): Promise<Buffer | undefined> => {
    try {
      const f = await api.call<{ file_path?: string; file_size?: number }>('getFile', { file_id: fileId });
      if (f.file_size !== undefined && f.file_size > max) {
        out.notes.push(
          `(${label} of ${mib(f.file_size)} was not downloaded: it is over the ${mib(max)} limit, ${key}.)`,
        );
        return undefined;
      }
      if (!f.file_path) throw new Error('no file path');
      return await api.download(f.file_path, max);
    } catch (err) {
      const e = err as { code?: number; message: string };
      log(`could not download an attachment: ${e.message}`);
      out.notes.push(
        e.code === 413
          ? `(${label} was not downloaded: it is over the ${mib(max)} limit, ${key}.)`
          : `(${label} could not be downloaded.)`,
      );
      return undefined;
    }
  };
  const fileKey = 'platforms.telegram.max_file_bytes';
  const imageMax = Math.min(limits.maxImageBytes, limits.maxFileBytes);
  const imageKey = limits.maxImageBytes <= limits.maxFileBytes ? 'images.max_bytes' : fileKey;

  if (msg.photo?.length) {
    const size = pickPhotoSize(msg.photo, imageMax);
    if (!size)
      out.notes.push(
        `(A photo was not downloaded: every size is over the ${mib(imageMax)} limit, ${imageKey}.)`,
      );
    else {
      const data = await fetchFile(size.file_id, 'A photo', imageMax, imageKey);
      if (data)
        out.images.push({
          kind: 'image',
          data: data.toString('base64'),
          mime: 'image/jpeg',
          name: `photo-${msg.message_id}.jpg`,
        });
    }
  }
  const doc = msg.document;
  if (doc) {
    const name = doc.file_name || `document-${msg.message_id}`;
    const label = `The file ${formatUntrustedValue(name)}`;
    if (doc.mime_type && IMAGE_MIMES.has(doc.mime_type) && (doc.file_size ?? 0) <= imageMax) {
      const data = await fetchFile(doc.file_id, label, imageMax, imageKey);
      if (data) out.images.push({ kind: 'image', data: data.toString('base64'), mime: doc.mime_type, name });
    } else {
      const data = await fetchFile(doc.file_id, label, limits.maxFileBytes, fileKey);
      if (data)
        out.files.push({ name, data, kind: 'document', ...(doc.mime_type ? { mime: doc.mime_type } : {}) });
    }
  }
  const others: Array<[TgFileRef | undefined, InboundFile['kind'], string, string]> = [
    [msg.voice, 'voice', `voice-${msg.message_id}.ogg`, 'audio/ogg'],
    [msg.audio, 'audio', `audio-${msg.message_id}.mp3`, 'audio/mpeg'],
    [msg.video, 'video', `video-${msg.message_id}.mp4`, 'video/mp4'],
    [msg.video_note, 'video', `video-note-${msg.message_id}.mp4`, 'video/mp4'],
  ];
  for (const [ref, kind, fallback, mime] of others) {
    if (!ref) continue;
    const name = ref.file_name || fallback;
    const label = kind === 'voice' ? 'A voice note' : `The ${kind} ${formatUntrustedValue(name)}`;
    const data = await fetchFile(ref.file_id, label, limits.maxFileBytes, fileKey);
    if (data) out.files.push({ name, data, kind, mime: ref.mime_type ?? mime });
  }
  return out;
}

const FileRef = z.object({
  file_id: z.string().min(1),
  file_unique_id: z.string().optional(),
  file_name: z.string().optional(),
  mime_type: z.string().optional(),
  file_size: z.number().optional(),
  duration: z.number().optional(),
});
/** What `refetchAttachments` needs of a message: its id and media (file ids, names, sizes). */
const MediaRef = z.object({
  message_id: z.number(),
  photo: z
    .array(
      z.object({
        file_id: z.string().min(1),
        file_unique_id: z.string().optional(),
        width: z.number(),
        height: z.number(),
        file_size: z.number().optional(),
      }),
    )
    .optional(),
  document: FileRef.optional(),
  voice: FileRef.optional(),
  audio: FileRef.optional(),
  video: FileRef.optional(),
  video_note: FileRef.optional(),
});

/** The media of a message as plain JSON (`InboundMessage.attachmentsRef`: no text, no sender). */
export function mediaRef(msg: TgMessage): z.infer<typeof MediaRef> {
  const { message_id, photo, document, voice, audio, video, video_note } = msg;
  return { message_id, photo, document, voice, audio, video, video_note };
}

/** A message to download the media of, from a `mediaRef` read back; undefined when damaged. */
export function messageOfRef(ref: unknown): TgMessage | undefined {
  const r = MediaRef.safeParse(ref);
  if (!r.success) return undefined;
  const { photo, document, voice, audio, video, video_note } = r.data;
  return {
    message_id: r.data.message_id,
    chat: { id: 0, type: 'private' },
    ...(photo ? { photo } : {}),
    ...(document ? { document } : {}),
    ...(voice ? { voice } : {}),
    ...(audio ? { audio } : {}),
    ...(video ? { video } : {}),
    ...(video_note ? { video_note } : {}),
  } as TgMessage;
}
