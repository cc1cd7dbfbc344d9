/**
 * The attachments of an admitted message (pipeline step 5): the files of `InboundMessage.files`
 * are saved under the session's media folder and named in the turn's text (inbound-files.ts);
 * images go to the model when the session's model accepts them — otherwise, on a chat platform,
 * they are saved as files with a note instead of failing the turn; so is an "image" whose bytes
 * are not a PNG, JPEG, GIF or WebP (the sender's type is a label) or that is over
 * `images.max_bytes`, which the backend would refuse, losing the whole message. Platforms whose
 * clients are programs (`authorization: 'adapter'`: the API server, webhooks) keep the refusal, so
 * the client learns that its request cannot be served.
 */
import type { HermesConfig } from '../config/schema.js';
import type { HermesHome } from '../home/home.js';
import { sniffImageMime } from '../images/sniff.js';
import { modelAcceptsImages } from '../model/vision.js';
import type { ImageAttachmentInput } from '../protocol/attachments.js';
import type { InboundFile, InboundMessage } from './adapter.js';
import type { AgentBackend } from './backend.js';
import {
  describeSavedFiles,
  saveInboundFiles,
  type AttachmentNote,
  type SavedFile,
  type Transcriber,
} from './inbound-files.js';
import type { PlatformConfig } from './platform-config.js';
import type { PlatformEntry } from './registry.js';

/** What the attachments add to a turn. */
export interface PreparedAttachments {
  /** Appended to the user's text (after a blank line); '' when there are no files. */
  filesText: string;
  /** Images for the model (empty when they became files). */
  images: ImageAttachmentInput[];
  saved: SavedFile[];
}

/** Everything `prepareAttachments` reads. */
export interface AttachmentContext {
  home: HermesHome;
  entry: PlatformEntry;
  backend: AgentBackend;
  config: HermesConfig;
  cfg: PlatformConfig;
  transcribe?: Transcriber;
  log: (line: string) => void;
}

/** An image given as base64 bytes, as a file (an image given by path stays an image). */
function imageAsFile(img: ImageAttachmentInput, i: number): InboundFile | undefined {
  if (!img.data) return undefined;
  return {
    name: img.name ?? `image-${i + 1}`,
    data: Buffer.from(img.data, 'base64'),
    ...(img.mime ? { mime: img.mime } : {}),
    kind: 'image',
  };
}

/**
 * Saves the message's files (and images the session's model cannot see) and builds the text
 * naming them. Never throws: a file that cannot be saved is named with the reason.
 */
export async function prepareAttachments(
  msg: Pick<InboundMessage, 'files' | 'images'>,
  sessionId: string,
  c: AttachmentContext,
): Promise<PreparedAttachments> {
  let images = msg.images ?? [];
  const files: InboundFile[] = [...(msg.files ?? [])];
  if (images.length && c.entry.authorization !== 'adapter') {
    // what the backend would refuse as an image goes on as a plain file
    const kept: ImageAttachmentInput[] = [];
    for (const [i, img] of images.entries()) {
      const bytes = img.data !== undefined ? Buffer.from(img.data, 'base64') : undefined;
      if (bytes && (bytes.length > c.config.images.max_bytes || !sniffImageMime(bytes)))
        files.push({ ...imageAsFile(img, i)!, kind: 'document' });
      else kept.push(img);
    }
    images = kept;
  }
  if (images.length && c.entry.authorization !== 'adapter') {
    const model = c.backend.status(sessionId)?.model || c.config.model.default;
    if (!modelAcceptsImages(model, c.config)) {
      const asFiles = images.map(imageAsFile);
      if (asFiles.every((f) => f !== undefined)) {
        files.push(...(asFiles as InboundFile[]));
        images = [];
      }
    }
  }
  if (!files.length) return { filesText: '', images, saved: [] };
  const saved = saveInboundFiles(files, {
    dir: c.home.sessionMediaDir(sessionId),
    maxBytes: c.cfg.max_file_bytes,
    capKey: `platforms.${c.entry.name}.max_file_bytes`,
  });
  const transcripts = new Map<number, string>();
  if (c.transcribe) {
    for (const [i, f] of saved.entries()) {
      if ((f.kind !== 'voice' && f.kind !== 'audio') || !f.path) continue;
      try {
        const t = await c.transcribe({ ...f, path: f.path });
        if (t !== undefined) transcripts.set(i, t);
      } catch (err) {
        c.log(`${c.entry.name}: transcription failed: ${(err as Error).message}`);
      }
    }
  }
  return { filesText: describeSavedFiles(saved, transcripts), images, saved };
}

/** Names and sizes of a message's attachments, for its delivery-ledger row (no bytes). */
export function attachmentNotes(msg: Pick<InboundMessage, 'files' | 'images'>): AttachmentNote[] {
  const notes: AttachmentNote[] = (msg.files ?? []).map((f) => ({
    name: f.name,
    bytes: f.data.length,
    ...(f.kind ? { kind: f.kind } : {}),
  }));
  for (const [i, img] of (msg.images ?? []).entries())
    notes.push({
      name: img.name ?? `image-${i + 1}`,
      bytes: img.data ? Math.floor((img.data.length * 3) / 4) : 0,
      kind: 'image',
    });
  return notes;
}

/** Reads the attachment notes of a ledger row's inbound JSON (malformed entries skipped). */
export function notesFromJson(v: unknown): AttachmentNote[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((n: unknown) => {
    const o = n as { name?: unknown; bytes?: unknown; kind?: unknown };
    if (!o || typeof o.name !== 'string' || typeof o.bytes !== 'number') return [];
    return [{ name: o.name, bytes: o.bytes, ...(typeof o.kind === 'string' ? { kind: o.kind } : {}) }];
  });
}
